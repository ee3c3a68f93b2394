/**
 * The closed union of API errors and the one table that maps them to a status and a body.
 */
import type { ApiForm } from './request.ts';

export interface ParamError {
  /** parameter name, e.g. `address_hash_param`, `type` */
  readonly name: string;
  readonly detail: string;
}

export type ApiError =
  | { readonly kind: 'InvalidParams'; readonly errors: readonly ParamError[] }
  | { readonly kind: 'NotFound'; readonly message?: string }
  | { readonly kind: 'BlockLostConsensus'; readonly hash: string }
  /** an answer that needs indexed blocks, asked of an empty store */
  | { readonly kind: 'ChainIndexing' }
  | { readonly kind: 'RouteNotFound' }
  | { readonly kind: 'MethodNotAllowed' }
  /** a request body over its route's cap (`body.maxBytes` of the endpoint) */
  | { readonly kind: 'PayloadTooLarge'; readonly maxBytes: number }
  | { readonly kind: 'Unauthorized'; readonly message: string }
  | { readonly kind: 'Forbidden' }
  /** the multichain form answers the hosted gateway's body `{"error": "Out of credits"}` */
  | { readonly kind: 'PaymentRequired'; readonly form?: ApiForm }
  /** `message` replaces the default 429 message (a host option) */
  | { readonly kind: 'RateLimited'; readonly message?: string }
  | { readonly kind: 'Unavailable'; readonly message: string }
  /** an unexpected failure (a bug or a broken dependency); the cause is logged, never sent */
  | { readonly kind: 'Internal' }
  /** raw-trace of a mined transaction whose trace the indexer could not keep (a node without traces) */
  | { readonly kind: 'TraceUnavailable' }
  /** an answer of a route Blockscout serves from a microservice (user operations), in that service's body `{code, message}` (gRPC code) */
  | { readonly kind: 'ServiceError'; readonly status: 400 | 404; readonly code: number; readonly message: string }
  /** an answer that needs an optional query the chain's store lacks (lib/ports/dataSource.ts OptionalQuery): `what` it would give */
  | { readonly kind: 'QueryUnavailable'; readonly what: string };

export type ApiErrorKind = ApiError['kind'];

export interface ErrorResponse {
  readonly status: number;
  /** an object, except Blockscout's bare JSON string of a failed raw-trace fetch */
  readonly body: Record<string, unknown> | string;
}

/** The default 429 message: neutral, it names no service (hosts may configure their own). */
export const RATE_LIMITED_MESSAGE = 'Too many requests';

/** The only place where errors become HTTP. */
export function errorResponse(error: ApiError): ErrorResponse {
  switch (error.kind) {
    case 'InvalidParams':
      return {
        status: 422,
        body: {
          errors: error.errors.map((e) => ({
            title: 'Invalid value',
            source: { pointer: `/${e.name}` },
            detail: e.detail,
          })),
        },
      };
    case 'NotFound':
      return { status: 404, body: { message: error.message ?? 'Not found' } };
    case 'BlockLostConsensus':
      return { status: 404, body: { message: 'Block lost consensus', hash: error.hash } };
    case 'ChainIndexing':
      return { status: 422, body: { message: 'Chain is indexing now, try again later' } };
    case 'RouteNotFound':
      return { status: 404, body: { message: 'Page not found' } };
    case 'MethodNotAllowed':
      return { status: 405, body: { message: 'Method not allowed' } };
    case 'PayloadTooLarge':
      return { status: 413, body: { message: `Request body too large: at most ${error.maxBytes} bytes` } };
    case 'Unauthorized':
      return { status: 401, body: { message: error.message } };
    case 'Forbidden':
      return { status: 403, body: { message: 'Restricted access' } };
    case 'PaymentRequired':
      return { status: 402, body: error.form === 'multichain' ? { error: 'Out of credits' } : { message: 'Out of credits' } };
    case 'RateLimited':
      return { status: 429, body: { message: error.message ?? RATE_LIMITED_MESSAGE } };
    case 'Unavailable':
      return { status: 503, body: { message: error.message } };
    case 'Internal':
      return { status: 500, body: { message: 'Internal server error' } };
    case 'TraceUnavailable':
      // Blockscout answers 500 with a bare JSON string when its node cannot trace; scoutkit never
      // answers 500 for data it simply does not hold: the trace is a resource the store lacks
      return { status: 404, body: { message: RAW_TRACE_UNAVAILABLE } };
    case 'ServiceError':
      return { status: error.status, body: { code: error.code, message: error.message } };
    case 'QueryUnavailable':
      // the request is sound and the data may exist: this store offers no query that answers it
      return { status: 501, body: { message: queryUnavailableMessage(error.what) } };
  }
}

/** the 501 message of an answer the chain's store offers no query for */
export const queryUnavailableMessage = (what: string): string => `${what} not available from this store`;

/** an answer (`what`: e.g. "Top accounts") that needs an optional query the store lacks: 501 */
export const queryUnavailable = (what: string): ApiError => ({ kind: 'QueryUnavailable', what });

/** the 404 message of a raw trace the store does not hold */
export const RAW_TRACE_UNAVAILABLE = 'Raw trace not available: the indexer kept no trace of this transaction (its node served no traces)';

export const invalidParams = (errors: readonly ParamError[]): ApiError => ({ kind: 'InvalidParams', errors });
export const notFound: ApiError = { kind: 'NotFound' };
