/**
 * A block's traces, however the node answers: the whole block in one debug_traceBlockByNumber;
 * when that keeps failing (geth's `-32000 execution timeout`, after the retries) or answers some
 * transactions with `{txHash, error: "execution timeout"}`, those transactions are asked one by
 * one (debug_traceTransaction), and a transaction whose trace still times out once more with a
 * longer `timeout` (geth's tracer option; nodes without it ignore it).
 */
import type { Hash } from '../../lib/domain/records.ts';
import type { SourceBlock } from '../../lib/chain-source.ts';
import { classify, FinalRpcError, FatalRpcError } from './errors.ts';
import { traceEntries } from './parse.ts';
import type { TraceEntry } from './parse.ts';

export interface TraceContext {
  /** a JSON-RPC call with the source's retries */
  readonly call: (method: string, params: readonly unknown[]) => Promise<unknown>;
  /** the `timeout` of the last attempt, e.g. '25s' */
  readonly longTimeout: string;
  readonly log: (line: string) => void;
}

const toHex = (n: number): string => `0x${n.toString(16)}`;

/** Trace one transaction: as asked, then (on a retryable failure) with the longer timeout. */
export async function traceOne(ctx: TraceContext, hash: Hash, tracer: Record<string, unknown>): Promise<unknown> {
  try {
    return await ctx.call('debug_traceTransaction', [hash, tracer]);
  } catch (e) {
    const err = classify(e);
    if (err instanceof FinalRpcError || err instanceof FatalRpcError) throw err;
    ctx.log(`trace of ${hash} failed (${err.message}): asking again with timeout ${ctx.longTimeout}`);
    return ctx.call('debug_traceTransaction', [hash, { ...tracer, timeout: ctx.longTimeout }]);
  }
}

export async function traceBlock<T>(
  ctx: TraceContext,
  block: SourceBlock,
  tracer: Record<string, unknown>,
  parse: (hash: Hash, result: unknown) => T,
): Promise<T[]> {
  if (block.transactions.length === 0) return [];
  const hashes = block.transactions.map((t) => t.hash);
  const what = String(tracer.tracer);
  let entries: TraceEntry[];
  try {
    entries = traceEntries(await ctx.call('debug_traceBlockByNumber', [toHex(block.number), tracer]), hashes, what);
  } catch (e) {
    const err = classify(e);
    // a block the node does not have yet, a refusal, a bad answer: not for per-transaction tracing
    if (err instanceof FinalRpcError || err instanceof FatalRpcError || err.reason === 'not-yet') throw err;
    ctx.log(`${what} of block ${block.number} failed (${err.message}): tracing its ${hashes.length} transaction(s) one by one`);
    entries = hashes.map((transactionHash) => ({ transactionHash, error: err.message }));
  }
  return Promise.all(
    entries.map(async (entry) => parse(entry.transactionHash, entry.error === undefined ? entry.result : await traceOne(ctx, entry.transactionHash, tracer))),
  );
}
