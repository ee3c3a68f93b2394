/**
 * The first step of every way in (the Koa middleware, the fast path, upgrades, socket joins):
 * a request's URL and headers read into the plain request value the steps judge
 * (`HostRequest`) — one query parser and one client-IP reader.
 *
 * Both read as Koa 3 reads a request, so that an answer is the same whichever way it came in:
 * the query by `URLSearchParams` (a repeated name gives an array of its values; an invalid escape
 * stays as written; no cap on the number of names), the client IP from the first entry of
 * X-Forwarded-For when the proxy is trusted (or of its last `maxIpsCount` entries, and from the
 * app's `proxyIpHeader`, as a Koa app configures them), else the socket's address. The Koa
 * middleware reads its context by `contextRequest` (once per request, kept on the context), the
 * fast path and upgrades their node request by `parseRequest`. test/host/parse.test.ts holds
 * every path to Koa's own answers.
 */
import type { IncomingMessage } from 'node:http';
import type { RawQuery } from '../../lib/index.ts';
import type { HostRequest } from '../request.ts';

/** The query string of a request (without `?`) as Koa 3's `ctx.query`. */
export function parseQuery(text: string): RawQuery {
  if (text === '') return {};
  const params = new URLSearchParams(text);
  const out: Record<string, string | string[]> = {};
  for (const key of params.keys()) {
    const values = params.getAll(key);
    const value = values.length <= 1 ? values[0] : values;
    // defined, not assigned: a name like `__proto__` is a name like any other
    Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
  }
  return out;
}

/** Which header a trusted proxy's client addresses are read from, and how many of its last entries count (Koa's `proxyIpHeader`, `maxIpsCount`). */
export interface ProxyTrust {
  /** lower case; default `x-forwarded-for` */
  readonly header?: string;
  /** only the last this many entries (0: all) */
  readonly maxIps?: number;
}

/** The client's address as Koa's `ctx.ip`: X-Forwarded-For's first entry when `proxy` (and it has one), else the socket's. */
export function clientIp(headers: HostRequest['headers'], remoteAddress: string | undefined, proxy: boolean, trust?: ProxyTrust): string {
  if (proxy) {
    const forwarded = headers[trust?.header ?? 'x-forwarded-for'];
    const text = forwarded === undefined ? '' : typeof forwarded === 'string' ? forwarded : forwarded.join(',');
    if (text !== '') {
      const first = firstEntry(text, trust?.maxIps ?? 0);
      if (first !== '') return first;
    }
  }
  return remoteAddress ?? '';
}

/** the first of a comma-separated list's entries (of its last `last` when above 0), trimmed */
function firstEntry(text: string, last: number): string {
  if (last > 0) {
    const entries = text.split(',');
    return (entries[Math.max(0, entries.length - last)] ?? '').trim();
  }
  const comma = text.indexOf(',');
  return (comma === -1 ? text : text.slice(0, comma)).trim();
}

/** A URL's path (raw, as received) and query string (without `?`). */
export function splitUrl(url: string): { readonly path: string; readonly query: string } {
  const mark = url.indexOf('?');
  return mark === -1 ? { path: url, query: '' } : { path: url.slice(0, mark), query: url.slice(mark + 1) };
}

/** The plain request value of a node request (an upgrade, or the fast path's read). */
export function parseRequest(req: IncomingMessage, proxy: boolean): HostRequest {
  const { path, query } = splitUrl(req.url ?? '/');
  return { method: req.method ?? 'GET', path, headers: req.headers, query: parseQuery(query), ip: clientIp(req.headers, req.socket.remoteAddress, proxy) };
}

/** What `contextRequest` reads of a Koa context (structurally: no Koa here). */
export interface ContextLike {
  readonly method: string;
  readonly path: string;
  readonly querystring: string;
  readonly headers: HostRequest['headers'];
  readonly socket: { readonly remoteAddress?: string | undefined };
  readonly app: { readonly proxy: boolean; readonly proxyIpHeader: string; readonly maxIpsCount: number };
}

/** The client's address of a Koa request, by its app's `proxy`, `proxyIpHeader` and `maxIpsCount` (as `ctx.ip`). */
export function contextIp(ctx: ContextLike): string {
  const { app } = ctx;
  if (!app.proxy) return ctx.socket.remoteAddress ?? '';
  return clientIp(ctx.headers, ctx.socket.remoteAddress, true, { header: app.proxyIpHeader.toLowerCase(), maxIps: app.maxIpsCount });
}

/** kept on the context under a symbol of ours: read once per request */
const PARSED = Symbol('scoutkit.hostRequest');
type WithRequest = { [PARSED]?: HostRequest };

/** The plain request value of a Koa request (its path as the middleware sees it), read once and kept on the context. */
export function contextRequest(ctx: ContextLike): HostRequest {
  const known = (ctx as WithRequest)[PARSED];
  if (known !== undefined) return known;
  return setContextRequest(ctx, { method: ctx.method, path: ctx.path, headers: ctx.headers, query: parseQuery(ctx.querystring), ip: contextIp(ctx) });
}

/** Replace a Koa request's value (the Etherscan dialect's key from a POST body stands for one in the query). */
export function setContextRequest(ctx: object, request: HostRequest): HostRequest {
  (ctx as WithRequest)[PARSED] = request;
  return request;
}
