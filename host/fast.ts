/**
 * The fast path of a plain API read: a `GET` or `HEAD` of an API v2 (or v1) route that answers
 * JSON (no body to read, no stream, not the OpenAPI document), answered from the server's
 * request listener before Koa — the same steps (identify → rateLimit → knownChain → authorize,
 * the same instances: one limiter state, one key ring), the same `explorer.dispatch`, the same
 * compressor (a cached answer's bytes and compressed forms), written with the same status,
 * headers (names, values and order) and bytes as the Koa chain writes them, in one function
 * instead of Koa's context and N layers. The server counts and logs each request it answers
 * (`done`), as its Koa layers would.
 *
 * It is the listener's adapter of the host's one pipeline (host/pipeline/): `parseQuery` and
 * `clientIp` (parse.ts), `route` (route.ts), `runSteps` (steps.ts), then render.ts from a failure
 * to its status and body and from an answer to the bytes on the wire (`ResponseHeaders`,
 * `varyWith`, `writeAnswer`: what Koa's `respond` and `ctx.vary` would write).
 *
 * Anything else is not taken (`false`): the Koa chain answers it as before. What decides is
 * read before any step runs, so a request is never charged twice.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ENDPOINTS, isCachedResponse, matchRoute } from '../lib/index.ts';
import type { EndpointName, EndpointRequest, Explorer, JsonValue } from '../lib/index.ts';
import type { Compressor, Encoded } from './compress.ts';
import { jsonText } from './jsonText.ts';
import { clientIp, parseQuery } from './pipeline/parse.ts';
import { failureOf, render, ResponseHeaders, varyWith, writeAnswer } from './pipeline/render.ts';
import { route, routeTable } from './pipeline/route.ts';
import { runSteps } from './pipeline/steps.ts';
import type { HostRequest, RequestInfo, Step } from './request.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

/** What the fast path answered, for the server's metrics and log. */
export interface FastAnswer {
  readonly request: HostRequest;
  readonly info: RequestInfo;
  readonly status: number;
}

/** Takes the request (true) and answers it, calling `done` once the answer is decided; or leaves it to Koa (false). */
export type FastPath = (req: IncomingMessage, res: ServerResponse, done: (answer: FastAnswer) => void) => boolean;

export interface FastPathOptions {
  readonly explorer: Explorer;
  readonly steps: readonly Step[];
  readonly compressor: Compressor;
  readonly prefix: string;
  /** the client IP from X-Forwarded-For (the Koa app's `proxy`) */
  readonly proxy: boolean;
  /** the CORS headers of an actual request (any origin), set before the steps; none: CORS off */
  readonly cors?: readonly (readonly [string, string])[];
  /** told about an unexpected error (rendered as 500) */
  readonly report: (error: unknown, request: { readonly method: string; readonly path: string }) => void;
  /** whether a path is the server's own (metrics, health, docs): then Koa answers it */
  readonly ownPath?: (path: string) => boolean;
  /** whether the server is closing: an answer then says `connection: close`, as the server's Koa layer adds it */
  readonly closing?: () => boolean;
}

/** The endpoints whose GET answers JSON from the store (no body, no stream) and whose answer the host does not rewrite. */
const PLAIN = new Set<string>(
  (Object.keys(ENDPOINTS) as EndpointName[]).filter((name) => {
    const e = ENDPOINTS[name] as { readonly method?: string; readonly produces?: string; readonly body?: unknown };
    return (e.method === undefined || e.method === 'GET') && e.produces === undefined && e.body === undefined && name !== 'openApi';
  }),
);

const isPlain = (info: RequestInfo): info is RequestInfo & { endpoint: EndpointName } => PLAIN.has(info.endpoint);

/** a URL parseurl (Koa's) reads with url.parse rather than as `path?query`: left to Koa */
const UNUSUAL = /[\t\n\f\r #\u00a0\ufeff]/;

export function createFastPath(options: FastPathOptions): FastPath | undefined {
  const { explorer, steps, compressor, prefix, proxy, cors, report, ownPath, closing } = options;
  // an explorer with endpoints of its own routes by its own table: Koa's chain serves it
  if ((explorer.routes ?? matchRoute) !== matchRoute) return undefined;
  const table = routeTable(prefix, matchRoute, explorer.defaultChain);

  const serve = async (req: IncomingMessage, res: ServerResponse, request: HostRequest, info: RequestInfo & { endpoint: EndpointName }, done: (answer: FastAnswer) => void): Promise<void> => {
    const headers = new ResponseHeaders();
    if (cors !== undefined) for (const [name, value] of cors) headers.set(name, value);
    const accept = compressor.varies ? headerText(req.headers['accept-encoding']) : '';
    let status: number;
    let out: Encoded;
    try {
      const waiting = runSteps(steps, request, info, headers);
      if (waiting !== undefined) await waiting;
      const endpointRequest: EndpointRequest = { endpoint: info.endpoint, chainId: info.chainId, form: info.form, params: info.params, query: request.query };
      const response = await explorer.dispatch(endpointRequest);
      if (response.stream !== undefined) throw new Error(`fast path: ${info.endpoint} answered a stream`);
      for (const name in response.headers) headers.set(name, response.headers[name] as string);
      status = response.status;
      const body = response.body;
      const keep = isCachedResponse(response) && body !== null && typeof body === 'object' ? body : undefined;
      const encoded = encodeJson(compressor, headers, accept, body, keep, false);
      out = encoded instanceof Promise ? await encoded : encoded;
    } catch (e) {
      const rendered = render(failureOf(e, (error) => report(error, request)), headers);
      status = rendered.status;
      const encoded = encodeJson(compressor, headers, accept, rendered.body, undefined, true);
      out = encoded instanceof Promise ? await encoded : encoded;
    }
    done({ request, info, status });
    writeAnswer(res, request.method, status, headers, out, closing?.() === true);
  };

  return (req, res, done) => {
    const method = req.method;
    // HTTP/1 only (an http2 compat response is Koa's to write)
    if ((method !== 'GET' && method !== 'HEAD') || req.httpVersionMajor !== 1) return false;
    const url = req.url;
    if (url === undefined || url.charCodeAt(0) !== 0x2f || UNUSUAL.test(url)) return false;
    const mark = url.indexOf('?');
    const path = mark === -1 ? url : url.slice(0, mark);
    if (ownPath?.(path) === true) return false;
    const routed = route(table, path, method);
    if (routed === null || routed.kind !== 'api') return false;
    const info = routed.info;
    if (info.allow !== undefined || !isPlain(info)) return false;
    const request: HostRequest = { method, path, headers: req.headers, query: mark === -1 ? {} : parseQuery(url.slice(mark + 1)), ip: clientIp(req.headers, req.socket.remoteAddress, proxy) };
    void serve(req, res, request, info, done).catch((e: unknown) => {
      // a failure of the write itself: the connection cannot carry a well-formed answer
      report(e, request);
      res.destroy();
    });
    return true;
  };
}

/** A JSON answer's content type (the answer's own kept, unless it is a failure's), `Vary`, and its bytes, compressed as `accept` asks. */
function encodeJson(compressor: Compressor, headers: ResponseHeaders, accept: string, body: JsonValue, keep: object | undefined, failure: boolean): Encoded | Promise<Encoded> {
  if (failure || !headers.has('content-type')) headers.set('Content-Type', JSON_TYPE);
  if (compressor.varies) headers.set('Vary', varyWith(headers.get('vary')));
  return compressor.encode(accept, jsonText(body), keep);
}

function headerText(value: string | readonly string[] | undefined): string {
  return value === undefined ? '' : typeof value === 'string' ? value : value.join(', ');
}
