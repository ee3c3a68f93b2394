/**
 * The tracing ladder: which rung a node's frames and state diffs are read on, probed once at
 * start, best first — block (debug_traceBlockByNumber), transaction (debug_traceTransaction with
 * callTracer), parity (trace_block), structlog (debug_traceTransaction's opcode steps), none. A
 * rung is taken when the node answers its method (an answer about the block or transaction asked
 * is an answer); it is passed over only when the node says it does not serve it. A fault
 * (network, timeout) is retried by `call` and thrown when it lasts: never taken for an answer.
 */
import type { Hash } from '../../lib/domain/records.ts';
import type { TraceMode } from '../../lib/chain-source.ts';
import { classify, FinalRpcError } from './errors.ts';
import { obj } from './parse.ts';
import { STRUCT_LOG_OPTIONS } from './structlogFetch.ts';
import { ZERO_HASH } from '../../lib/domain/hex.ts';

type Call = (method: string, params: readonly unknown[]) => Promise<unknown>;

const UNSUPPORTED =
  /not (found|supported|available|enabled|exist)|unsupported|unknown (method|tracer)|does not exist|disabled|method .*not|only supports the default tracer|no tracer parameter/i;

/** the node says it does not know (or does not serve) the method or tracer: -32601, "does not exist", ... */
export function isUnsupported(e: unknown): boolean {
  const err = classify(e);
  return err instanceof FinalRpcError && (err.code === -32601 || err.code === -32004 || UNSUPPORTED.test(err.message));
}

/**
 * How the node takes a method: `unsupported`, or served — with its answer, or `refused` about the
 * data asked (genesis is not traceable on some nodes, a transaction may be unknown: the method exists).
 */
async function ask(call: Call, method: string, params: readonly unknown[]): Promise<{ readonly served: false } | { readonly served: true; readonly answer?: unknown }> {
  try {
    return { served: true, answer: await call(method, params) };
  } catch (e) {
    const err = classify(e);
    if (!(err instanceof FinalRpcError)) throw err;
    return isUnsupported(err) ? { served: false } : { served: true };
  }
}

/** whether the node serves a method: any answer, or any refusal about the data asked, is a yes */
export async function serves(call: Call, method: string, params: readonly unknown[]): Promise<boolean> {
  return (await ask(call, method, params)).served;
}

/** a node that ignores `tracer` (Ganache) answers a tracer's request with opcode steps */
const isStructLogs = (answer: unknown): boolean => typeof answer === 'object' && answer !== null && 'structLogs' in answer;

export const CALL_TRACER = { tracer: 'callTracer' } as const;
export const PRESTATE_TRACER = { tracer: 'prestateTracer', tracerConfig: { diffMode: true } } as const;

/** how far below the head a transaction is looked for to probe the per-transaction methods with */
const SAMPLE_DEPTH = 64;

const toHex = (n: number): string => `0x${n.toString(16)}`;

/**
 * A transaction to ask per-transaction tracers about: the latest in the last blocks, else the
 * zero hash (a node that knows the method answers "not found", one that does not says so first).
 */
async function sampleTransaction(call: Call, head: number): Promise<Hash> {
  for (let n = head; n >= 0 && n > head - SAMPLE_DEPTH; n--) {
    const b = await call('eth_getBlockByNumber', [toHex(n), false]);
    if (b === null || b === undefined) continue;
    const txs = obj(b, 'eth_getBlockByNumber').transactions;
    if (Array.isArray(txs) && txs.length > 0) {
      const last = txs[txs.length - 1];
      if (typeof last === 'string') return last as Hash;
    }
  }
  return ZERO_HASH;
}

export interface LadderChoice {
  readonly traceMode: TraceMode;
  readonly traces: boolean;
  readonly prestate: boolean;
}

/** Whether one rung serves frames, and state diffs beside them. */
async function tryRung(call: Call, mode: Exclude<TraceMode, 'none'>, head: string, sample: () => Promise<Hash>): Promise<LadderChoice | null> {
  switch (mode) {
    case 'block':
      if (!(await serves(call, 'debug_traceBlockByNumber', [head, CALL_TRACER]))) return null;
      return { traceMode: mode, traces: true, prestate: await serves(call, 'debug_traceBlockByNumber', [head, PRESTATE_TRACER]) };
    case 'transaction': {
      const tx = await sample();
      const frames = await ask(call, 'debug_traceTransaction', [tx, CALL_TRACER]);
      if (!frames.served || isStructLogs(frames.answer)) return null;
      return { traceMode: mode, traces: true, prestate: await serves(call, 'debug_traceTransaction', [tx, PRESTATE_TRACER]) };
    }
    case 'parity':
      if (!(await serves(call, 'trace_block', [head]))) return null;
      return { traceMode: mode, traces: true, prestate: await serves(call, 'trace_replayBlockTransactions', [head, ['stateDiff']]) };
    case 'structlog':
      if (!(await serves(call, 'debug_traceTransaction', [await sample(), STRUCT_LOG_OPTIONS]))) return null;
      return { traceMode: mode, traces: true, prestate: false };
  }
}

const ORDER: readonly Exclude<TraceMode, 'none'>[] = ['block', 'transaction', 'parity', 'structlog'];

/**
 * The best rung the node serves, or the one asked for (`forced`: used as asked when the node
 * serves it, else an error naming what the node refused — never a silent step down).
 */
export async function chooseRung(call: Call, head: number, forced?: TraceMode): Promise<LadderChoice> {
  if (forced === 'none') return { traceMode: 'none', traces: false, prestate: false };
  let sampled: Promise<Hash> | undefined;
  const sample = (): Promise<Hash> => (sampled ??= sampleTransaction(call, head));
  if (forced !== undefined) {
    const choice = await tryRung(call, forced, toHex(head), sample);
    if (choice === null) throw new Error(`--trace-mode ${forced}: the node does not serve it (${forced === 'block' ? 'debug_traceBlockByNumber' : forced === 'parity' ? 'trace_block' : 'debug_traceTransaction'} refused)`);
    return choice;
  }
  for (const mode of ORDER) {
    const choice = await tryRung(call, mode, toHex(head), sample);
    if (choice !== null) return choice;
  }
  return { traceMode: 'none', traces: false, prestate: false };
}
