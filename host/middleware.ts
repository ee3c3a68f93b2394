/**
 * `explorerMiddleware(explorer, options)`: the explorer as Koa middleware.
 *
 * lib's parsePath recognises the two forms, `/api/v2/...` (default chain) and
 * `/:chain_id/api/v2/...`, under an optional prefix; lib's route table (matchRoute) then picks
 * the endpoint. Anything else passes through untouched. A matched request runs its steps in one
 * function (no koa-compose chain: a step returns a promise only when it must wait):
 *
 *   identify → rateLimit → knownChain → authorize → answer, inside renderErrors
 *
 * renderErrors is outermost so that headers set before a failure (the limit headers) survive;
 * answer hands lib a plain `EndpointRequest` and writes the `ExplorerResponse` it gets back.
 *
 * The JSON-RPC subset (`POST /api/eth-rpc`, `POST /:chain_id/json-rpc`) and the gateway's
 * `GET /api/json/config` run the same steps with their own last one (host/rpc.ts); a JSON-RPC
 * body is read (bounded) before them, so that a batch is charged per call. So does the
 * Etherscan-compatible dialect (`/api?module=…`, `/{chain_id}/api?module=…` and the legacy paths
 * below them; host/etherscan.ts), charged once per request as the endpoint `etherscan`.
 */
import { Readable } from 'node:stream';
import type { Middleware, ParameterizedContext } from 'koa';
import {
  callCount,
  CONFIG_ENDPOINT,
  CONFIG_PATH,
  errorResponse,
  ETHERSCAN_ENDPOINT,
  INSTANCE_RPC_PATH,
  matchRoute,
  MULTICHAIN_RPC_PATH,
  parseEtherscanPath,
  parseJson,
  parsePath,
  RPC_ENDPOINT,
  toJson,
} from '../lib/index.ts';
import type { ApiError, ApiForm, Explorer, JsonValue, RawQuery, ServiceName } from '../lib/index.ts';
import { authorize, identify } from './identity.ts';
import type { IdentityOptions } from './identity.ts';
import { LIMIT_HEADERS, rateLimit } from './limits.ts';
import type { RateLimitOptions } from './limits.ts';
import { ApiException, requestInfo, setRequestInfo } from './request.ts';
import type { RequestInfo, Step } from './request.ts';
import { answerEtherscan, readEtherscanBody } from './etherscan.ts';
import { answerConfig, answerRpc, readBody } from './rpc.ts';

export interface ExplorerMiddlewareOptions extends IdentityOptions, RateLimitOptions {
  /** serve below this path, e.g. `/explorer` → `/explorer/api/v2/blocks` */
  readonly prefix?: string;
  /** told about unexpected errors (rendered as 500); default: one JSON line on stderr */
  readonly onError?: (error: unknown, ctx: ParameterizedContext) => void;
  /** the public URL of this host (with the prefix) in `GET /api/json/config`; default: the request's origin */
  readonly publicUrl?: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const ALLOWED = ['GET', 'HEAD'];

export function explorerMiddleware(explorer: Explorer, options: ExplorerMiddlewareOptions = {}): Middleware {
  const prefix = options.prefix ?? '';
  const lowerPrefix = prefix.toLowerCase();
  const steps: readonly Step[] = [identify(options), rateLimit(options), knownChain(explorer), authorize(options)];
  const report = options.onError ?? logUnexpected;
  // lib's route table picks the endpoint straight from the path (no router in front of it: one
  // match per request), then the same steps serve every endpoint
  const chain = serveSteps(steps, answer(explorer), report);
  const rpcChain = serveSteps(steps, answerRpc(explorer, writeJson), report);
  const enterRpc = async (ctx: ParameterizedContext, next: () => Promise<unknown>, form: ApiForm, chainId: string) => {
    const read = ctx.method === 'POST' ? await readBody(ctx) : undefined;
    const units = read !== undefined && 'text' in read ? callCount(parseJson(read.text)) : 1;
    return rpcChain(ctx, next, setRequestInfo(ctx, { endpoint: RPC_ENDPOINT, chainId, form, params: {}, units }));
  };
  const configChain = serveSteps(steps, answerConfig(explorer, { prefix, ...options }, writeJson), report);
  const etherscanChain = serveSteps(steps, answerEtherscan(explorer, writeJson), report);
  const multichainRpc = new RegExp(`^/([^/]+)${MULTICHAIN_RPC_PATH}/?$`, 'i');
  const same = (sub: string, path: string) => sub.toLowerCase() === path || sub.toLowerCase() === `${path}/`;

  return (ctx, next) => {
    const path = ctx.path;
    // the prefix matches in any case, as a router's would
    if (prefix !== '' && path.slice(0, prefix.length).toLowerCase() !== lowerPrefix) return next();
    const sub = prefix === '' ? path : path.slice(prefix.length);
    // the raw path (lib decodes segments)
    const parsed = parsePath(sub);
    const match = parsed === null ? null : matchRoute(parsed.subPath, parsed.api);
    if (parsed !== null && match !== null) {
      const form: ApiForm = parsed.chainId === undefined ? 'instance' : 'multichain';
      const chainId = parsed.chainId ?? explorer.defaultChain;
      return chain(ctx, next, setRequestInfo(ctx, { endpoint: match.endpoint, chainId, form, params: match.params }));
    }
    // the JSON-RPC subset and the gateway's config: the same steps, their own last one
    if (explorer.rpc !== undefined) {
      if (same(sub, INSTANCE_RPC_PATH)) return enterRpc(ctx, next, 'instance', explorer.defaultChain);
      const rpc = multichainRpc.exec(sub);
      if (rpc !== null) return enterRpc(ctx, next, 'multichain', safeDecode(rpc[1] ?? ''));
    }
    const dialect = explorer.etherscan === undefined ? null : parseEtherscanPath(sub);
    if (dialect !== null) {
      const legacyPath = dialect.legacy === undefined ? undefined : sub.replace(/^.*?\/api(?=\/)/i, '');
      const form: ApiForm = dialect.chainId === undefined ? 'instance' : 'multichain';
      const info = setRequestInfo(ctx, { endpoint: ETHERSCAN_ENDPOINT, chainId: dialect.chainId ?? explorer.defaultChain, form, params: legacyPath === undefined ? {} : { legacyPath } });
      return readEtherscanBody(ctx).then(() => etherscanChain(ctx, next, info));
    }
    if (same(sub, CONFIG_PATH)) {
      return configChain(ctx, next, setRequestInfo(ctx, { endpoint: CONFIG_ENDPOINT, chainId: explorer.defaultChain, form: 'instance', params: {} }));
    }
    return next(); // not one of ours: pass through untouched
  };
}

/**
 * A matched request's steps, then its last middleware, inside renderErrors. A step that answers
 * synchronously costs no promise (koa-compose would wrap each step in one).
 */
function serveSteps(
  steps: readonly Step[],
  last: Middleware,
  report: (error: unknown, ctx: ParameterizedContext) => void,
): (ctx: ParameterizedContext, next: () => Promise<unknown>, info: RequestInfo) => Promise<void> {
  return async (ctx, next, info) => {
    try {
      for (const step of steps) {
        const waiting = step(ctx, info);
        if (waiting !== undefined) await waiting;
      }
      await last(ctx, next);
    } catch (e) {
      renderError(ctx, e, report);
    }
  };
}

/** An unconfigured chain is 404, with or without a key (after counting, so it has limit headers). */
function knownChain(explorer: Explorer): Step {
  return (_ctx, info) => {
    if (!explorer.chainIds.includes(info.chainId)) {
      throw new ApiException({ kind: 'NotFound', message: `Unknown chain: ${info.chainId}` });
    }
  };
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

function renderError(ctx: ParameterizedContext, e: unknown, report: (error: unknown, ctx: ParameterizedContext) => void): void {
  let error: ApiError;
  if (e instanceof ApiException) {
    error = e.error;
  } else {
    report(e, ctx);
    error = { kind: 'Internal' };
  }
  for (const header of LIMIT_HEADERS) if (ctx.response.headers[header] === undefined) ctx.set(header, '-1');
  const { status, body } = errorResponse(error);
  writeJson(ctx, status, body as JsonValue);
}

function answer(explorer: Explorer): Middleware {
  return async (ctx) => {
    if (!ALLOWED.includes(ctx.method)) {
      ctx.set('allow', ALLOWED.join(', '));
      throw new ApiException({ kind: 'MethodNotAllowed' });
    }
    const info = requestInfo(ctx);
    if (!info || !isEndpoint(info.endpoint)) throw new ApiException({ kind: 'RouteNotFound' });
    const response = await explorer.dispatch({
      endpoint: info.endpoint,
      chainId: info.chainId,
      form: info.form,
      params: info.params,
      query: ctx.query as RawQuery,
    });
    for (const name in response.headers) ctx.set(name, response.headers[name] as string);
    ctx.status = response.status;
    // lib's answers name their JSON content type: set it once (koa keeps a type already set)
    if (ctx.response.get('content-type') === '') ctx.type = JSON_TYPE;
    if (response.stream !== undefined) {
      ctx.body = streamBody(response.stream, ctx);
      return;
    }
    ctx.body = jsonText(response.body);
  };
}

/**
 * A streamed answer (the CSV exports) piped as it is produced: each chunk is written when the
 * client takes it (backpressure: nothing is read ahead of the socket), so an export is never
 * held whole. A HEAD answer reads nothing (koa writes no body). A failure mid-stream (the status is already sent)
 * ends the connection, as the HTTP/1.1 way to say the body is incomplete.
 */
function streamBody(stream: AsyncIterable<string>, ctx: ParameterizedContext): Readable {
  // HEAD: koa sends the headers and never reads the stream (nor does it start the export)
  const readable = Readable.from(stream, { objectMode: false, highWaterMark: 1 });
  // koa would otherwise answer a failed stream with its own 500 text: the status is already sent
  readable.on('error', () => ctx.req.socket.destroy());
  return readable;
}

const isEndpoint = (name: ServiceName): name is Exclude<ServiceName, typeof RPC_ENDPOINT | typeof CONFIG_ENDPOINT | typeof ETHERSCAN_ENDPOINT> =>
  name !== RPC_ENDPOINT && name !== CONFIG_ENDPOINT && name !== ETHERSCAN_ENDPOINT;

export function writeJson(ctx: ParameterizedContext, status: number, body: JsonValue): void {
  ctx.status = status;
  ctx.type = JSON_TYPE;
  ctx.body = jsonText(body);
}

/** lib hands out the same body object for a cached answer: serialise each body once. */
const texts = new WeakMap<object, string>();
function jsonText(body: JsonValue): string {
  if (body === null || typeof body !== 'object') return toJson(body);
  let text = texts.get(body);
  if (text === undefined) {
    text = toJson(body);
    texts.set(body, text);
  }
  return text;
}

function logUnexpected(error: unknown, ctx: ParameterizedContext): void {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`${JSON.stringify({ level: 'error', method: ctx.method, path: ctx.path, error: message })}\n`);
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
