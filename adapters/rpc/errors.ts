/**
 * Every failure a node can give, in one of four classes, decided from the node's own code and
 * message (dug out of viem's wrappers: viem replaces geth's -32000 text with its generic
 * "Missing or invalid parameters."):
 *
 * - retryable: network faults, timeouts (of the transport, of a trace, of an eth_call), rate
 *   limits (429 with retry-after, -32005), overloaded or failing gateways (502/503 pages) —
 *   tried again with exponential backoff, then thrown as a SourceUnavailableError;
 * - not yet: a block, receipt or header a backend does not have yet ("header not found",
 *   "block not found", a null receipt) — tried again the same way, never a reorg by itself;
 * - final for this call: the EVM's answer (a revert, invalid opcode, out of gas) or a request
 *   the node will never take (unknown method, bad params);
 * - fatal: the node refuses us (401/403).
 */
import { BaseError, HttpRequestError, RpcRequestError, TimeoutError } from 'viem';
import { SourceUnavailableError } from '../../lib/chain-source.ts';

/** A failure worth trying again (network, timeout, rate limit, overload). */
export class RetryableRpcError extends SourceUnavailableError {
  override readonly name: string = 'RetryableRpcError';
  constructor(
    message: string,
    override readonly cause: unknown,
    /** the JSON-RPC error code, when there was one */
    readonly code: number | null = null,
    /** what the node asked us to wait (Retry-After), in ms */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message, 'unavailable', { cause });
  }
}

/** What the node announced is not there yet on the backend that answered: ask again. */
export class NotYetRpcError extends SourceUnavailableError {
  override readonly name: string = 'NotYetRpcError';
  constructor(
    message: string,
    override readonly cause: unknown,
    readonly code: number | null = null,
  ) {
    super(message, 'not-yet', { cause });
  }
}

/** A failure that a retry would repeat (revert, bad request, method unsupported). */
export class FinalRpcError extends Error {
  override readonly name: string = 'FinalRpcError';
  constructor(
    message: string,
    override readonly cause: unknown,
    /** the JSON-RPC error code, when there was one */
    readonly code: number | null,
    /** the EVM ran the call and answered so (revert, invalid opcode, out of gas): a real answer */
    readonly execution: boolean = false,
  ) {
    super(message);
  }
}

/** The node refuses us altogether (unauthorized, forbidden): retrying or going on is pointless. */
export class FatalRpcError extends Error {
  override readonly name: string = 'FatalRpcError';
  constructor(
    message: string,
    override readonly cause: unknown,
  ) {
    super(message);
  }
}

export type RpcFailure = RetryableRpcError | NotYetRpcError | FinalRpcError | FatalRpcError;

const RETRYABLE_CODES = new Set([-1, -32005, -32007, 429, -32603]);
const RETRYABLE_STATUS = new Set([408, 413, 425, 429, 500, 502, 503, 504]);
const FATAL_STATUS = new Set([401, 403]);
/** timeouts (transport, geth's trace "execution timeout", eth_call "execution aborted (timeout = 5s)"), network, limits */
const RETRYABLE_MESSAGE =
  /timeout|timed out|execution aborted|ECONNRESET|ECONNREFUSED|EPIPE|socket hang up|fetch failed|other side closed|network|rate limit|too many requests|limit exceeded|overloaded|busy|capacity|try again|temporarily|unavailable|bad gateway/i;
/** what a backend a moment behind says of a block it has not seen */
const NOT_YET_MESSAGE = /header not found|block not found|block #?\d+ not found|unknown block|receipt not found|not yet (available|indexed)/i;
/** a node without the state of old blocks (not a moment behind: it will never have it) */
export const NO_HISTORICAL_STATE = /missing trie node|historical state|state .*(not available|unavailable|pruned)|pruned/i;
/** the EVM's own answers to a call */
const EXECUTION_MESSAGE = /revert|invalid opcode|out of gas|stack (underflow|overflow)|invalid jump|write protection|invalid (FE|0xfe)/i;

/** What the node said: its code and its own message, found in the error's cause chain. */
export interface NodeError {
  readonly code: number | null;
  readonly status: number | null;
  /** the node's message (geth's, not viem's generic text), at most 300 characters */
  readonly message: string;
  readonly retryAfterMs: number | null;
}

function chain(error: unknown): unknown[] {
  const out: unknown[] = [];
  let e: unknown = error;
  for (let i = 0; i < 8 && typeof e === 'object' && e !== null; i++) {
    out.push(e);
    e = 'cause' in e ? e.cause : undefined;
  }
  return out;
}

function retryAfter(headers: Headers | undefined): number | null {
  const v = headers?.get('retry-after');
  if (v === null || v === undefined || v === '') return null;
  const s = Number(v);
  if (Number.isFinite(s)) return Math.max(0, s * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

const squash = (s: string): string => {
  const flat = s.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
};

export function nodeError(error: unknown): NodeError {
  let code: number | null = null;
  let status: number | null = null;
  let message: string | null = null;
  let after: number | null = null;
  for (const e of chain(error)) {
    if (e instanceof RpcRequestError) {
      code ??= e.code;
      if (typeof e.status === 'number') status ??= e.status;
      after ??= retryAfter(e.headers);
      message ??= e.details;
    } else if (e instanceof HttpRequestError) {
      if (typeof e.status === 'number') status ??= e.status;
      after ??= retryAfter(e.headers);
      // the body of an error page, else the cause (a reset, a cut body)
      if (e.status !== undefined && e.details !== '') message ??= `HTTP ${e.status}: ${e.details}`;
    } else if (typeof e === 'object' && e !== null && !(e instanceof BaseError) && 'code' in e && typeof e.code === 'number' && 'message' in e && typeof e.message === 'string') {
      // the JSON-RPC error object itself (viem keeps it as the RpcRequestError's cause)
      code ??= e.code;
      message ??= e.message;
    }
    if (code === null && typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'number') code = e.code;
  }
  if (message === null) {
    const parts = chain(error)
      .map((e) => (e instanceof BaseError ? (e.details !== '' ? e.details : e.shortMessage) : e instanceof Error ? e.message : String(e)))
      .filter((m) => m !== '');
    message = parts[parts.length - 1] ?? String(error);
  }
  return { code, status, message: squash(message), retryAfterMs: after };
}

const describe = (n: NodeError): string => `${n.message}${n.code !== null ? ` (code ${n.code})` : ''}${n.status !== null ? ` (HTTP ${n.status})` : ''}`;

export function classify(error: unknown): RpcFailure {
  if (error instanceof RetryableRpcError || error instanceof NotYetRpcError || error instanceof FinalRpcError || error instanceof FatalRpcError) return error;
  const n = nodeError(error);
  const text = describe(n);
  if (error instanceof TimeoutError) return new RetryableRpcError(`request timed out: ${text}`, error, n.code);
  if (n.status !== null && FATAL_STATUS.has(n.status)) return new FatalRpcError(text, error);
  if (n.code === 3 || (EXECUTION_MESSAGE.test(n.message) && !RETRYABLE_MESSAGE.test(n.message))) return new FinalRpcError(text, error, n.code, true);
  if (NO_HISTORICAL_STATE.test(n.message)) return new FinalRpcError(text, error, n.code);
  if (NOT_YET_MESSAGE.test(n.message)) return new NotYetRpcError(text, error, n.code);
  if (n.code !== null && RETRYABLE_CODES.has(n.code)) return new RetryableRpcError(text, error, n.code, n.retryAfterMs);
  if (n.status !== null && RETRYABLE_STATUS.has(n.status)) return new RetryableRpcError(text, error, n.code, n.retryAfterMs);
  if (RETRYABLE_MESSAGE.test(n.message)) return new RetryableRpcError(text, error, n.code, n.retryAfterMs);
  // no code, no status: the connection broke or the body was cut short
  if (n.code === null && n.status === null && chain(error).some((e) => e instanceof HttpRequestError)) return new RetryableRpcError(text, error, null);
  return new FinalRpcError(text, error, n.code);
}

/** "-32000 execution timeout" → "timeout"; the kinds retries are counted and logged by. */
export function failureKind(err: RpcFailure): string {
  if (err instanceof NotYetRpcError) return 'not-yet';
  if (err instanceof FinalRpcError) return 'final';
  if (err instanceof FatalRpcError) return 'fatal';
  const m = err.message;
  if (/\(HTTP 429\)|rate limit|too many/i.test(m) || err.code === 429 || err.code === -32005) return 'rate-limit';
  if (/timeout|timed out|execution aborted/i.test(m)) return 'timeout';
  if (/\(HTTP 5\d\d\)/.test(m)) return 'http-5xx';
  if (err.code !== null) return 'node-error';
  return 'network';
}

export interface RetryPolicy {
  /** attempts after the first (default 5) */
  readonly retries: number;
  /** first backoff, doubled each time (default 250 ms) */
  readonly baseDelayMs: number;
  /** longest backoff (default 8 s) */
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 5, baseDelayMs: 250, maxDelayMs: 8000 };

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Told of each retry: what was asked, the classified failure, the attempt (1-based) and the wait. */
export type RetryListener = (what: string, err: RetryableRpcError | NotYetRpcError, attempt: number, delayMs: number) => void;

/**
 * Run `fn`, retrying retryable and not-yet failures with exponential backoff (and jitter, and at
 * least the node's Retry-After); throws classified errors, their message naming the call.
 */
export async function withRetry<T>(what: string, fn: () => Promise<T>, policy: RetryPolicy = DEFAULT_RETRY, onRetry?: RetryListener): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      const err = classify(e);
      const transient = err instanceof RetryableRpcError || err instanceof NotYetRpcError;
      if (!transient || attempt >= policy.retries) {
        err.message = `${what}: ${err.message}${transient ? ` (gave up after ${attempt + 1} attempts)` : ''}`;
        throw err;
      }
      const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
      const asked = err instanceof RetryableRpcError && err.retryAfterMs !== null ? Math.min(policy.maxDelayMs, err.retryAfterMs) : 0;
      const delay = Math.max(asked, backoff / 2 + Math.random() * (backoff / 2));
      onRetry?.(what, err, attempt + 1, delay);
      await sleep(delay);
    }
  }
}
