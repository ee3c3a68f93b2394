/**
 * One transaction's struct-log trace (`debug_traceTransaction` with the default tracer), read
 * from the node as a stream and given up as soon as more than `maxBytes` arrive: an opcode trace
 * with memory runs to megabytes for a plain contract call (4 MB for the demo's CREATE2 on Hardhat
 * 2), and one of a heavy transaction would not fit in memory at all.
 *
 * The options ask for the stack and memory (the rebuild reads call inputs and outputs from memory)
 * and not for storage: `disableStorage`, `disableStack` and `disableMemory` are Hardhat 2's and
 * older geth's names (Hardhat 2 gives memory unless told not to); `enableMemory` is current
 * geth's and EDR's (Hardhat 3 gives none without it). Both nodes take both sets.
 *
 * Failures are thrown as viem throws them, so that errors.ts's `classify` reads them as it reads
 * the rest of the source's: a JSON-RPC error answer as an RpcRequestError carrying the node's code
 * and message, an HTTP failure as an HttpRequestError with its status and headers (429's
 * Retry-After), a broken connection or an unreadable body as an HttpRequestError without status
 * (retryable), the time limit as a TimeoutError. TraceTooLargeError is a FinalRpcError: asking
 * again would get the same trace. An abort through `signal` rejects with the signal's reason.
 */
import { HttpRequestError, RpcRequestError, TimeoutError } from 'viem';
import type { Hash } from '../../lib/domain/records.ts';
import { FinalRpcError } from './errors.ts';
import { RpcShapeError } from './parse.ts';

export const STRUCT_LOG_OPTIONS = { disableStorage: true, disableStack: false, disableMemory: false, enableMemory: true } as const;

/** The transaction's struct-log trace is larger than the limit: it is not read (a retry would get the same). */
export class TraceTooLargeError extends FinalRpcError {
  override readonly name: string = 'TraceTooLargeError';
  constructor(
    readonly transactionHash: Hash,
    readonly maxBytes: number,
  ) {
    super(`the struct-log trace of transaction ${transactionHash} is larger than ${maxBytes} bytes, the most read`, null, null);
  }
}

export interface StructLogFetchOptions {
  /** the most bytes of the answer read before giving up with TraceTooLargeError */
  readonly maxBytes: number;
  /** the whole request, answer read included */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/** The answer's body, read chunk by chunk; TraceTooLargeError once past the limit. */
async function readLimited(res: Response, hash: Hash, maxBytes: number, stop: () => void): Promise<Buffer> {
  const length = Number(res.headers.get('content-length') ?? NaN);
  if (Number.isFinite(length) && length > maxBytes) {
    stop();
    throw new TraceTooLargeError(hash, maxBytes);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (res.body === null) return Buffer.alloc(0);
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      stop();
      await reader.cancel().catch(() => undefined);
      throw new TraceTooLargeError(hash, maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

/** The JSON-RPC answer's result, or the node's error as viem throws it. */
function resultOf(text: string, url: string, body: Record<string, unknown>): unknown {
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    throw new HttpRequestError({ url, body, details: `the answer is not JSON: ${text.slice(0, 200)}` });
  }
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) throw new RpcShapeError('debug_traceTransaction: the answer is not a JSON-RPC object');
  const a = answer as Record<string, unknown>;
  if (typeof a.error === 'object' && a.error !== null) {
    const e = a.error as Record<string, unknown>;
    const code = typeof e.code === 'number' ? e.code : -32603;
    const message = typeof e.message === 'string' ? e.message : JSON.stringify(e);
    throw new RpcRequestError({ url, body, error: { code, message, data: e.data } });
  }
  if (!('result' in a)) throw new RpcShapeError('debug_traceTransaction: the answer has neither result nor error');
  return a.result;
}

/**
 * `debug_traceTransaction(hash)` with the default tracer (memory and stack, no storage): the raw
 * result, for framesFromStructLogs and storageWritesFromStructLogs.
 */
export async function fetchStructLogs(url: string, hash: Hash, options: StructLogFetchOptions): Promise<unknown> {
  const body = { jsonrpc: '2.0', id: 1, method: 'debug_traceTransaction', params: [hash, STRUCT_LOG_OPTIONS] };
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  const onAbort = (): void => controller.abort(options.signal?.reason);
  if (options.signal?.aborted === true) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: controller.signal });
    if (!res.ok) {
      const details = await res.text().then((t) => t.slice(0, 500), () => res.statusText);
      // a JSON-RPC error carried by an HTTP error status (some gateways): the node's own code and words
      if (/^\s*\{/.test(details) && /"error"/.test(details)) {
        try {
          resultOf(details, url, body);
        } catch (e) {
          if (e instanceof RpcRequestError) throw new RpcRequestError({ url, body, error: { code: e.code, message: e.details, data: e.data }, status: res.status, headers: res.headers });
        }
      }
      throw new HttpRequestError({ url, body, status: res.status, headers: res.headers, details });
    }
    const bytes = await readLimited(res, hash, options.maxBytes, () => controller.abort());
    return resultOf(bytes.toString('utf8'), url, body);
  } catch (e) {
    if (e instanceof TraceTooLargeError || e instanceof RpcRequestError || e instanceof HttpRequestError || e instanceof RpcShapeError) throw e;
    if (timedOut) throw new TimeoutError({ url, body });
    if (options.signal?.aborted === true) throw options.signal.reason ?? e;
    // the connection broke, or the body was cut short
    throw new HttpRequestError({ url, body, cause: e instanceof Error ? e : new Error(String(e)), details: e instanceof Error ? e.message : String(e) });
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}
