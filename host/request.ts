/**
 * What the host's middlewares learn about one request, shared between them without touching
 * `ctx.state` of the surrounding app (a symbol property of the context), the plain request value
 * the steps judge, and the one exception type they throw.
 */
import type { ApiError, ApiForm, RawQuery, ServiceName } from '../lib/index.ts';
import type { Plan } from './plans.ts';

/** Who is calling. `id` keys the limiter: a key digest or an IP, never the key itself. */
export interface Identity {
  readonly kind: 'key' | 'anonymous';
  readonly id: string;
  readonly plan: Plan;
  /** the grant's name from the keys file, when any */
  readonly name?: string;
}

export interface RequestInfo {
  /** a service, or an endpoint added with `createExplorer({ endpoints })` */
  readonly endpoint: ServiceName | (string & {});
  /** what the request is charged in units of its endpoint's cost (a JSON-RPC batch: its calls); default 1 */
  readonly units?: number;
  /** the chain the request addresses (the default chain for the per-instance form) */
  readonly chainId: string;
  readonly form: ApiForm;
  /** the endpoint's path parameters, decoded */
  readonly params: Readonly<Record<string, string>>;
  identity?: Identity;
  /** set by identity when the caller must be refused (after being counted as anonymous) */
  rejection?: ApiError;
  /** set by the rate limit when its store was too slow or failing and the request got a 503 */
  limiterBusy?: boolean;
  /** the route reads a body of at most this many bytes (read after the steps, before the answer) */
  readonly bodyLimit?: number;
  /** the path is known under these methods only (the `allow` header): the answer is 405 */
  readonly allow?: string;
}

/**
 * The request as the steps judge it: a plain value, so that a Koa request and an HTTP upgrade
 * (a socket to come) are judged by the same code, read by host/pipeline/parse.ts: a Koa
 * context's once per request (`contextRequest`), a node request's (the fast path, an upgrade) by
 * `parseRequest`.
 */
export interface HostRequest {
  readonly method: string;
  /** the path as received (with any mount prefix), without the query string */
  readonly path: string;
  /** lower-cased names, as node gives them */
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly query: RawQuery;
  /** the client's address (behind a trusted proxy: X-Forwarded-For's) */
  readonly ip: string;
}

/** Where a step sets the response's headers (the limit headers): a Koa context, or a plain collector. */
export interface HeaderSink {
  set(name: string, value: string): unknown;
}

/**
 * One step of a matched request before its answer (identify, rate limit, known chain, authorize):
 * it throws an `ApiException` to refuse, and returns a promise only when it must wait.
 */
export type Step = (request: HostRequest, info: RequestInfo, response: HeaderSink) => void | Promise<void>;

/** kept on the request's context under a symbol of ours (cheaper per request than a WeakMap entry) */
const INFO = Symbol('scoutkit.requestInfo');
type WithInfo = { [INFO]?: RequestInfo };

export function setRequestInfo(ctx: object, info: RequestInfo): RequestInfo {
  (ctx as WithInfo)[INFO] = info;
  return info;
}

/** The info of a request our routes matched; undefined for anything else. */
export function requestInfo(ctx: object): RequestInfo | undefined {
  return (ctx as WithInfo)[INFO];
}

/** Thrown by host middlewares; rendered through lib's error table by the outermost one. */
export class ApiException extends Error {
  override readonly name = 'ApiException';
  constructor(readonly error: ApiError) {
    super(error.kind);
  }
}
