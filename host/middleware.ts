/**
 * `explorerMiddleware(explorer, options)`: the explorer as Koa middleware.
 *
 * lib's path classifier (classifyPath) tells the dialect of a path under an optional prefix: for
 * the API v2's two forms, `/api/v2/...` (default chain) and `/:chain_id/api/v2/...`, the
 * explorer's route table (keyed by method and template) then picks the endpoint; a path known
 * under other methods only is a 405. Anything else passes through untouched. A matched request
 * runs its steps in one function (no koa-compose chain: a step returns a promise only when it
 * must wait):
 *
 *   identify → rateLimit → knownChain → authorize → answer, inside renderErrors
 *
 * This is the Koa adapter of the host's one pipeline (host/pipeline/): the path is classified by
 * `route`, the steps run by `runSteps`, a failure rendered by `render`, as on the fast path
 * (host/fast.ts) and for upgrades (host/upgrade.ts).
 *
 * The steps judge a plain request value (`HostRequest`: read from the context once by
 * host/pipeline/parse.ts's `contextRequest`, with its one query parser and one client-IP reader;
 * the handlers read the query from it, never `ctx.query`), so an HTTP upgrade is judged by the same code (`judgeUpgrade`, host/upgrade.ts). renderErrors is
 * outermost so that headers set before a failure (the limit headers) survive; answer reads the
 * body of a route that declares one (host/body.ts, within the route's cap), hands lib a plain
 * `EndpointRequest` and writes the `ExplorerResponse` it gets back.
 *
 * The JSON-RPC subset (`POST /api/eth-rpc`, `POST /:chain_id/json-rpc`) and the gateway's
 * `GET /api/json/config` run the same steps with their own last one (host/rpc.ts); a JSON-RPC
 * body is read (bounded) before them, so that a batch is charged per call. So does the
 * Etherscan-compatible dialect (`/api?module=…`, `/{chain_id}/api?module=…` and the legacy paths
 * below them; host/etherscan.ts), charged once per request as the endpoint `etherscan`, and
 * Sourcify's API at the root (`/v2/verify/…`, `/v2/contract/…`, `/check-all-by-addresses`, `POST /`;
 * host/sourcify.ts), charged as `sourcify`.
 */
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { Middleware, ParameterizedContext } from 'koa';
import { callCount, CONFIG_ENDPOINT, ETHERSCAN_ENDPOINT, isCachedResponse, matchRoute, parseJson, RPC_ENDPOINT } from '../lib/index.ts';
import type { ApiError, ApiForm, EndpointRequest, Explorer, JsonValue, RawQuery, RequestBody, RouteMatcher } from '../lib/index.ts';
import { parseBody } from './body.ts';
import type { IdentityOptions } from './identity.ts';
import type { RateLimitOptions } from './limits.ts';
import { ApiException, requestInfo, setRequestInfo } from './request.ts';
import type { HostRequest, RequestInfo, Step } from './request.ts';
import { answerEtherscan, readEtherscanBody } from './etherscan.ts';
import { answerSourcify } from './sourcify.ts';
import { answerConfig, answerRpc, readBody } from './rpc.ts';
import type { WriteJson } from './rpc.ts';
import { corsMiddleware } from './cors.ts';
import { createCompressor } from './compress.ts';
import type { CompressOptions, Compressor } from './compress.ts';
import { documentServers } from './openapiServers.ts';
import { jsonText } from './jsonText.ts';
import { createFastPath } from './fast.ts';
import type { FastPath, FastPathOptions } from './fast.ts';
import type { CorsOptions } from './cors.ts';
import { judgeJoinBy, judgeUpgradeBy } from './upgrade.ts';
import { reportUnexpected } from './pipeline/log.ts';
import { contextRequest } from './pipeline/parse.ts';
import { failureOf, render } from './pipeline/render.ts';
import { route, routeTable } from './pipeline/route.ts';
import { requestSteps, runSteps } from './pipeline/steps.ts';

export { knownChain } from './pipeline/steps.ts';
import type { Join, UpgradeVerdict } from './upgrade.ts';

export interface ExplorerMiddlewareOptions extends IdentityOptions, RateLimitOptions {
  /** serve below this path, e.g. `/explorer` → `/explorer/api/v2/blocks` */
  readonly prefix?: string;
  /** told about unexpected errors (rendered as 500); default: one JSON line on stderr */
  readonly onError?: (error: unknown, ctx: ParameterizedContext) => void;
  /** the public URL of this host (with the prefix) in `GET /api/json/config`; default: the request's origin */
  readonly publicUrl?: string;
  /** CORS on every answer of ours (host/cors.ts); default: any origin, as Blockscout; `false`: none */
  readonly cors?: CorsOptions | false;
  /** an upgrade request's client IP from X-Forwarded-For (`judgeUpgrade`; a Koa request's follows its app's `proxy`) */
  readonly proxy?: boolean;
  /**
   * gzip / brotli as the client accepts (host/compress.ts): a cached answer's forms made once,
   * others from `threshold` bytes (default 1024), CSV exports on the fly; default on; `false`: none
   */
  readonly compress?: CompressOptions | false;
}

/** The middleware, and the same steps for an HTTP upgrade request (a socket to come). */
export interface ExplorerMiddleware extends Middleware {
  /**
   * Judge an upgrade request (`server.on('upgrade', …)`) by the steps of an HTTP request to
   * its path (a GET): keys, limits (it is charged as one request), known chain, restrictions.
   * Allowed: its identity and the limit headers; refused: the status, headers and JSON body to
   * answer (`refuseUpgrade` writes them on the socket). Never throws.
   */
  judgeUpgrade(req: IncomingMessage): Promise<UpgradeVerdict>;
  /**
   * Judge the join of a live topic on a socket whose upgrade was allowed (`verdict.request`,
   * `verdict.info`) by the same steps, as a GET of `{socket path}/{topic}`: charged as one
   * request, refused for a restricted address. null: allowed; else the refusal. Never throws.
   * `join` (host/upgrade.ts `joinOf`): the join's request value and info, kept by the caller to
   * log what the steps learned.
   */
  judgeJoin(upgrade: HostRequest, info: RequestInfo, topic: string, join?: Join): Promise<ApiError | null>;
  /**
   * The fast path of a plain API read over the same steps and compressor (host/fast.ts), for a
   * server's request listener in front of its Koa app; undefined where it does not apply (an
   * `onError` of the caller's, which takes a Koa context; an explorer with endpoints of its own).
   */
  fastPath(server: Pick<FastPathOptions, 'cors' | 'ownPath' | 'closing'>): FastPath | undefined;
}

const JSON_TYPE = 'application/json; charset=utf-8';

export function explorerMiddleware(explorer: Explorer, options: ExplorerMiddlewareOptions = {}): ExplorerMiddleware {
  const prefix = options.prefix ?? '';
  const steps = requestSteps(explorer, options);
  const report = options.onError ?? logUnexpected;
  const cors = options.cors === false ? undefined : corsMiddleware(options.cors);
  const routes: RouteMatcher<string> = explorer.routes ?? matchRoute;
  const compressor = createCompressor(options.compress);
  // every JSON answer of ours (errors included): bytes, compressed as the client accepts
  const write: WriteJson = (ctx, status, body) => sendJson(ctx, status, body, compressor);
  // lib's route table picks the endpoint straight from the path (no router in front of it: one
  // match per request), then the same steps serve every endpoint
  const chain = serveSteps(steps, answer(explorer, compressor, documentServers({ prefix, ...options })), report, write, cors);
  const rpcChain = serveSteps(steps, answerRpc(explorer, write), report, write, cors);
  const enterRpc = async (ctx: ParameterizedContext, next: () => Promise<unknown>, form: ApiForm, chainId: string) => {
    const read = ctx.method === 'POST' ? await readBody(ctx) : undefined;
    const units = read !== undefined && 'text' in read ? callCount(parseJson(read.text)) : 1;
    return rpcChain(ctx, next, setRequestInfo(ctx, { endpoint: RPC_ENDPOINT, chainId, form, params: {}, units }));
  };
  const configChain = serveSteps(steps, answerConfig(explorer, { prefix, ...options }, write), report, write, cors);
  const etherscanChain = serveSteps(steps, answerEtherscan(explorer, write), report, write, cors);
  const sourcifyChain = serveSteps(steps, answerSourcify(explorer, write), report, write, cors);

  const table = routeTable(prefix, routes, explorer.defaultChain);
  const middleware: Middleware = (ctx, next) => {
    const routed = route(table, ctx.path, ctx.method);
    // not below the prefix: not ours
    if (routed === null) return next();
    switch (routed.kind) {
      case 'api':
        return chain(ctx, next, setRequestInfo(ctx, routed.info));
      // the JSON-RPC subset and the gateway's config: the same steps, their own last one
      case 'rpc':
        return enterRpc(ctx, next, routed.form, routed.chainId);
      case 'etherscan': {
        const info = setRequestInfo(ctx, routed.info);
        return readEtherscanBody(ctx).then(() => etherscanChain(ctx, next, info));
      }
      case 'config':
        return configChain(ctx, next, setRequestInfo(ctx, routed.info));
      case 'sourcify':
        return sourcifyChain(ctx, next, setRequestInfo(ctx, routed.info));
      default: {
        // not one of ours (the socket is the upgrade's): pass through untouched; under a prefix
        // of its own, a path nothing downstream answered gets the API's JSON 404
        const sub = routed.kind === 'none' ? routed.sub : ctx.path.slice(prefix.length);
        return prefix !== '' && (sub === '' || sub.startsWith('/')) ? next().then(() => notFoundUnderPrefix(ctx, cors)) : next();
      }
    }
  };
  const judgeUpgrade = judgeUpgradeBy({ explorer, steps, routes, prefix, proxy: options.proxy ?? false });
  const judgeJoin = judgeJoinBy(steps);
  const fastPath = (server: Pick<FastPathOptions, 'cors' | 'ownPath' | 'closing'>): FastPath | undefined =>
    options.onError !== undefined ? undefined : createFastPath({ explorer, steps, compressor, prefix, proxy: options.proxy ?? false, report: logUnexpected, ...server });
  return Object.assign(middleware, { judgeUpgrade, judgeJoin, fastPath });
}

/** The JSON 404 of a path under the prefix that nothing answered (a preflight: CORS answers it). */
function notFoundUnderPrefix(ctx: ParameterizedContext, cors: Middleware | undefined): Promise<unknown> | undefined {
  if (ctx.status !== 404 || ctx.body != null) return undefined;
  const write = async (): Promise<void> => {
    const { status, body } = render({ kind: 'RouteNotFound' });
    writeJson(ctx, status, body);
  };
  return cors === undefined ? write() : cors(ctx, write);
}

/**
 * A matched request's steps, then its last middleware, inside renderErrors. A step that answers
 * synchronously costs no promise (koa-compose would wrap each step in one). Inside CORS, when on:
 * a preflight is answered before any step (never charged), and the CORS headers set before the
 * steps stay on any error.
 */
function serveSteps(
  steps: readonly Step[],
  last: Middleware,
  report: (error: unknown, ctx: ParameterizedContext) => void,
  write: WriteJson,
  cors?: Middleware,
): (ctx: ParameterizedContext, next: () => Promise<unknown>, info: RequestInfo) => Promise<void> {
  const run = async (ctx: ParameterizedContext, next: () => Promise<unknown>, info: RequestInfo): Promise<void> => {
    try {
      // the request value read once (host/pipeline/parse.ts); the context is the header sink
      const waiting = runSteps(steps, contextRequest(ctx), info, ctx);
      if (waiting !== undefined) await waiting;
      await last(ctx, next);
    } catch (e) {
      await renderError(ctx, e, report, write);
    }
  };
  if (cors === undefined) return run;
  return (ctx, next, info) => cors(ctx, () => run(ctx, next, info)) as Promise<void>;
}

/** Outermost: render any error through lib's table, keeping headers already set. */
export function renderErrors(options: Pick<ExplorerMiddlewareOptions, 'onError'> = {}): Middleware {
  const report = options.onError ?? logUnexpected;
  return async (ctx, next) => {
    try {
      await next();
    } catch (e) {
      renderError(ctx, e, report);
    }
  };
}

function renderError(
  ctx: ParameterizedContext,
  e: unknown,
  report: (error: unknown, ctx: ParameterizedContext) => void,
  write: WriteJson = writeJson,
): Promise<void> | void {
  const sink = { has: (lower: string) => ctx.response.headers[lower] !== undefined, set: (name: string, value: string) => ctx.set(name, value) };
  const { status, body } = render(failureOf(e, (error) => report(error, ctx)), sink);
  return write(ctx, status, body);
}

/** `servers`: our OpenAPI document as mounted here (host/openapiServers.ts), when not at the root. */
function answer(explorer: Explorer, compressor: Compressor, servers?: (document: JsonValue) => JsonValue): Middleware {
  return async (ctx) => {
    const info = requestInfo(ctx);
    if (info?.allow !== undefined) {
      ctx.set('allow', info.allow);
      throw new ApiException({ kind: 'MethodNotAllowed' });
    }
    if (!info || !isEndpoint(info.endpoint)) throw new ApiException({ kind: 'RouteNotFound' });
    // server-sent events: a reconnecting EventSource names the last event it saw in a header
    const lastEventId = info.endpoint === 'events' ? ctx.get('last-event-id') : '';
    const parsed = contextRequest(ctx).query;
    const query: RawQuery = lastEventId !== '' && parsed['last_event_id'] === undefined ? { ...parsed, last_event_id: lastEventId } : parsed;
    const request: EndpointRequest =
      info.bodyLimit === undefined
        ? { endpoint: info.endpoint, chainId: info.chainId, form: info.form, params: info.params, query }
        : { endpoint: info.endpoint, chainId: info.chainId, form: info.form, params: info.params, query, method: ctx.method, ...(await readRouteBody(ctx, info.bodyLimit)) };
    const response = await explorer.dispatch(request);
    for (const name in response.headers) ctx.set(name, response.headers[name] as string);
    ctx.status = response.status;
    // lib's answers name their JSON content type: set it once (koa keeps a type already set)
    if (ctx.response.get('content-type') === '') ctx.type = JSON_TYPE;
    if (response.stream !== undefined) {
      ctx.body = streamBody(response.stream, ctx, compressor);
      return;
    }
    const body = servers !== undefined && info.endpoint === 'openApi' ? servers(response.body) : response.body;
    // a cached answer (the same objects on every hit) keeps its bytes and compressed forms
    const keep = isCachedResponse(response) && body !== null && typeof body === 'object' ? body : undefined;
    await compressor.send(ctx, jsonText(body), keep);
  };
}

/**
 * A streamed answer (the CSV exports) piped as it is produced: each chunk is written when the
 * client takes it (backpressure: nothing is read ahead of the socket), so an export is never
 * held whole. A HEAD answer reads nothing (koa writes no body). A failure mid-stream (the status is already sent)
 * ends the connection, as the HTTP/1.1 way to say the body is incomplete.
 */
function streamBody(stream: AsyncIterable<string>, ctx: ParameterizedContext, compressor: Compressor): Readable {
  // HEAD: koa sends the headers and never reads the stream (nor does it start the export)
  const readable = Readable.from(stream, { objectMode: false, highWaterMark: 1 });
  // koa would otherwise answer a failed stream with its own 500 text: the status is already sent
  readable.on('error', () => ctx.req.socket.destroy());
  // compressed on the fly when the client accepts it (a failure of the source fails this one too)
  const body = compressor.stream(ctx, readable);
  if (body !== readable) body.on('error', () => ctx.req.socket.destroy());
  return body;
}

const isEndpoint = (name: RequestInfo['endpoint']): name is EndpointRequest['endpoint'] =>
  name !== RPC_ENDPOINT && name !== CONFIG_ENDPOINT && name !== ETHERSCAN_ENDPOINT;

/** The body of a route that declares one, read within its cap (over it: 413, and the connection is closed after the answer). */
async function readRouteBody(ctx: ParameterizedContext, maxBytes: number): Promise<{ readonly body?: RequestBody }> {
  const parsed = await parseBody(ctx.req, maxBytes);
  if ('tooLarge' in parsed) {
    // the rest of the body is not read: the connection cannot carry another request
    ctx.set('connection', 'close');
    throw new ApiException({ kind: 'PayloadTooLarge', maxBytes });
  }
  return parsed.body === undefined ? {} : { body: parsed.body };
}

/** A JSON answer as it is (the server's own small answers: /health, /ready, its 404). */
export function writeJson(ctx: ParameterizedContext, status: number, body: JsonValue): void {
  ctx.status = status;
  ctx.type = JSON_TYPE;
  ctx.body = jsonText(body);
}

/** A JSON answer as bytes, compressed as the client accepts when it is worth it. */
function sendJson(ctx: ParameterizedContext, status: number, body: JsonValue, compressor: Compressor): Promise<void> | undefined {
  ctx.status = status;
  ctx.type = JSON_TYPE;
  return compressor.send(ctx, jsonText(body));
}

export function logUnexpected(error: unknown, ctx: Pick<ParameterizedContext, 'method' | 'path'>): void {
  reportUnexpected(error, { method: ctx.method, path: ctx.path });
}
