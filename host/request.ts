/**
 * What the host's middlewares learn about one request, shared between them without touching
 * `ctx.state` of the surrounding app (a symbol property of the context), and the one exception type they throw.
 */
import type { ParameterizedContext } from 'koa';
import type { ApiError, ApiForm, ServiceName } from '../lib/index.ts';
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
  readonly endpoint: ServiceName;
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
}

/**
 * One step of a matched request before its answer (identify, rate limit, known chain, authorize):
 * it throws an `ApiException` to refuse, and returns a promise only when it must wait.
 */
export type Step = (ctx: ParameterizedContext, info: RequestInfo) => void | Promise<void>;

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
