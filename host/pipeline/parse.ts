/**
 * The first step of every way in (the Koa middleware, the fast path, upgrades, socket joins):
 * a request's URL and headers read into the plain request value the steps judge
 * (`HostRequest`) — one query parser and one client-IP reader.
 *
 * Both read as Koa 3 reads a request, since the Koa middleware hands its context to the steps as
 * it is (no copy per request): the query by `URLSearchParams` (a repeated name gives an array of
 * its values; an invalid escape stays as written; no cap on the number of names), the client IP
 * from the first entry of X-Forwarded-For when the proxy is trusted, else the socket's address.
 * test/host/parse.test.ts holds every path to Koa's own answers.
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

/** The client's address as Koa's `ctx.ip`: X-Forwarded-For's first entry when `proxy` (and it has one), else the socket's. */
export function clientIp(headers: HostRequest['headers'], remoteAddress: string | undefined, proxy: boolean): string {
  if (proxy) {
    const forwarded = headers['x-forwarded-for'];
    const text = forwarded === undefined ? '' : typeof forwarded === 'string' ? forwarded : forwarded.join(',');
    if (text !== '') {
      const comma = text.indexOf(',');
      const first = (comma === -1 ? text : text.slice(0, comma)).trim();
      if (first !== '') return first;
    }
  }
  return remoteAddress ?? '';
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
