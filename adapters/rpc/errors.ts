/**
 * RPC failures split into retryable (network, timeouts, rate limits, overloaded nodes) and
 * final (reverts, bad parameters, unsupported methods). Retries back off exponentially.
 */
import { HttpRequestError, TimeoutError } from 'viem';

/** A failure worth trying again. */
export class RetryableRpcError extends Error {
  override readonly name = 'RetryableRpcError';
  constructor(
    message: string,
    override readonly cause: unknown,
  ) {
    super(message);
  }
}

/** A failure that a retry would repeat (revert, bad request, method unsupported). */
export class FinalRpcError extends Error {
  override readonly name = 'FinalRpcError';
  constructor(
    message: string,
    override readonly cause: unknown,
    /** the JSON-RPC error code, when there was one */
    readonly code: number | null,
  ) {
    super(message);
  }
}

const RETRYABLE_CODES = new Set([-1, -32005, -32007, 429, -32603]);
const RETRYABLE_STATUS = new Set([408, 413, 429, 500, 502, 503, 504]);
const RETRYABLE_MESSAGE = /timeout|timed out|ECONNRESET|ECONNREFUSED|EPIPE|socket hang up|fetch failed|network|rate limit|too many requests|overloaded|try again/i;

function codeOf(error: unknown): number | null {
  let e: unknown = error;
  for (let i = 0; i < 5 && typeof e === 'object' && e !== null; i++) {
    if ('code' in e && typeof e.code === 'number') return e.code;
    e = 'cause' in e ? e.cause : undefined;
  }
  return null;
}

function statusOf(error: unknown): number | null {
  let e: unknown = error;
  for (let i = 0; i < 5 && typeof e === 'object' && e !== null; i++) {
    if (e instanceof HttpRequestError && typeof e.status === 'number') return e.status;
    e = 'cause' in e ? e.cause : undefined;
  }
  return null;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const short = 'shortMessage' in error && typeof error.shortMessage === 'string' ? error.shortMessage : error.message;
    return short;
  }
  return String(error);
}

export function classify(error: unknown): RetryableRpcError | FinalRpcError {
  if (error instanceof RetryableRpcError || error instanceof FinalRpcError) return error;
  const message = messageOf(error);
  const code = codeOf(error);
  const status = statusOf(error);
  if (error instanceof TimeoutError) return new RetryableRpcError(message, error);
  if (code === 3 || /revert/i.test(message)) return new FinalRpcError(message, error, code);
  if (code !== null && RETRYABLE_CODES.has(code)) return new RetryableRpcError(message, error);
  if (status !== null && RETRYABLE_STATUS.has(status)) return new RetryableRpcError(message, error);
  if (code === null && status === null && RETRYABLE_MESSAGE.test(message)) return new RetryableRpcError(message, error);
  if (status === null && code === null && error instanceof HttpRequestError) return new RetryableRpcError(message, error);
  return new FinalRpcError(message, error, code);
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

/** Run `fn`, retrying retryable failures with exponential backoff (and jitter); throws classified errors. */
export async function withRetry<T>(what: string, fn: () => Promise<T>, policy: RetryPolicy = DEFAULT_RETRY): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      const err = classify(e);
      if (err instanceof FinalRpcError || attempt >= policy.retries) {
        err.message = `${what}: ${err.message}${err instanceof RetryableRpcError ? ` (gave up after ${attempt + 1} attempts)` : ''}`;
        throw err;
      }
      const delay = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
      await sleep(delay / 2 + Math.random() * (delay / 2));
    }
  }
}
