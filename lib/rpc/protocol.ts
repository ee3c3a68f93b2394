/**
 * JSON-RPC 2.0, the envelope: requests (single or batch) checked, responses and error objects
 * built. Methods never see the envelope; they get their `params` and return an outcome.
 */
import type { JsonValue } from '../json.ts';

/** The standard codes, and the server-error code nodes use for failed reads. */
export const RPC_CODES = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** geth's and anvil's code for "the server cannot answer this" (unknown block, no node, ...) */
  serverError: -32000,
  /** a query that would return too much (EIP-1474 "limit exceeded") */
  limitExceeded: -32005,
} as const;

/** The largest batch answered; a longer one gets one -32600 error (as geth's "batch too large"). */
export const MAX_BATCH_SIZE = 100;

export type RpcId = string | number | null;

export interface RpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: JsonValue;
}

/** What a method answers: a result, or an error object. */
export type RpcOutcome = { readonly result: JsonValue } | { readonly error: RpcErrorObject };

/** One call, as a method runs it. */
export interface RpcCall {
  readonly method: string;
  readonly params: readonly unknown[];
}

export interface RpcResponse {
  readonly jsonrpc: '2.0';
  readonly id: RpcId;
  readonly result?: JsonValue;
  readonly error?: RpcErrorObject;
}

export const rpcError = (code: number, message: string, data?: JsonValue): { readonly error: RpcErrorObject } => ({
  error: data === undefined ? { code, message } : { code, message, data },
});
export const invalidParams = (message: string): { readonly error: RpcErrorObject } => rpcError(RPC_CODES.invalidParams, message);

/** A checked entry of a request: a call to run, or an envelope error to answer as is. */
export type Entry = { readonly id: RpcId; readonly call: RpcCall } | { readonly id: RpcId; readonly error: RpcErrorObject };

/** A parsed body: one entry, a batch of entries, or an error for the whole body. */
export type ParsedBody =
  | { readonly kind: 'single'; readonly entry: Entry }
  | { readonly kind: 'batch'; readonly entries: readonly Entry[] }
  | { readonly kind: 'invalid'; readonly error: RpcErrorObject };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is RpcId => v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/** Check one request object (JSON-RPC 2.0 §4): `jsonrpc: "2.0"`, a string method, params an array (or absent). */
export function checkEntry(value: unknown): Entry {
  if (!isObject(value)) return { id: null, error: { code: RPC_CODES.invalidRequest, message: 'Invalid request' } };
  const id = isId(value.id) ? value.id : null;
  if (value.jsonrpc !== '2.0' || typeof value.method !== 'string' || (value.id !== undefined && !isId(value.id))) {
    return { id, error: { code: RPC_CODES.invalidRequest, message: 'Invalid request' } };
  }
  if (value.params !== undefined && !Array.isArray(value.params)) {
    // by-name params: no eth_ method takes them
    return { id, error: { code: RPC_CODES.invalidParams, message: 'Invalid params: expected an array' } };
  }
  return { id, call: { method: value.method, params: (value.params ?? []) as readonly unknown[] } };
}

/** A body as parsed JSON (undefined: it was not JSON). */
export function parseBody(body: unknown): ParsedBody {
  if (body === undefined) return { kind: 'invalid', error: { code: RPC_CODES.parseError, message: 'Parse error' } };
  if (Array.isArray(body)) {
    if (body.length === 0) return { kind: 'invalid', error: { code: RPC_CODES.invalidRequest, message: 'Invalid request: empty batch' } };
    if (body.length > MAX_BATCH_SIZE) {
      return { kind: 'invalid', error: { code: RPC_CODES.invalidRequest, message: `batch too large: at most ${MAX_BATCH_SIZE} calls` } };
    }
    return { kind: 'batch', entries: body.map(checkEntry) };
  }
  return { kind: 'single', entry: checkEntry(body) };
}

/** Parse JSON text; undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function response(id: RpcId, outcome: RpcOutcome): RpcResponse {
  return 'error' in outcome ? { jsonrpc: '2.0', id, error: outcome.error } : { jsonrpc: '2.0', id, result: outcome.result };
}

/** The number of calls a body holds (what a batch is charged); 1 for anything unparsable. */
export function callCount(body: unknown): number {
  return Array.isArray(body) && body.length > 0 && body.length <= MAX_BATCH_SIZE ? body.length : 1;
}
