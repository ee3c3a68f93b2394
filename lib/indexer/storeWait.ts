/**
 * The sink with a store outage waited out: a call that failed with StoreUnavailableError (the
 * adapter's "unreachable", never a bug) is made again whole, with capped exponential backoff,
 * for as long as the outage lasts (within its budget, outage.ts). The sink's calls are atomic and
 * idempotent — a batch whose transaction failed midway, or whose commit's answer was lost, is
 * written again with nothing lost or doubled.
 */
import type { Address, Hash, Hex, UserOperationRecord } from '../domain/records.ts';
import type { DataSink } from '../ports.ts';
import { StoreUnavailableError } from '../sink/unavailable.ts';
import type { Outage } from './outage.ts';

export interface StoreWaitOptions {
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export function waitOutStore(
  sink: DataSink,
  outage: Outage,
  options: StoreWaitOptions,
  deps: { readonly sleep: (ms: number) => Promise<void>; readonly aborted: () => boolean },
): DataSink {
  const call = async <T>(what: string, f: () => Promise<T>): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await f();
        outage.resumed();
        return result;
      } catch (e) {
        if (!(e instanceof StoreUnavailableError) || deps.aborted()) throw e;
        outage.waiting(`${what}: ${e.message}`);
        const backoff = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
        await deps.sleep(backoff / 2 + Math.random() * (backoff / 2));
        if (deps.aborted()) throw e;
      }
    }
  };
  const settle = sink.settle;
  const beginBulk = sink.beginBulk;
  const inBulk = sink.inBulk;
  const pending = sink.pendingTransactions;
  const drop = sink.dropPendingTransactions;
  const withLogs = sink.blocksWithLogs;
  const writeOps = sink.writeUserOperations;
  return {
    writeBlocks: (bundles) => call(`writing ${bundles.length} block(s)`, () => sink.writeBlocks(bundles)),
    writePendingTransactions: (txs) => call('writing pending transactions', () => sink.writePendingTransactions(txs)),
    rollbackAbove: (height) => call(`rolling back above block ${height}`, () => sink.rollbackAbove(height)),
    getIndexedHead: () => call('reading the stored head', () => sink.getIndexedHead()),
    getChainIdentity: () => call("reading the store's chain", () => sink.getChainIdentity()),
    setChainIdentity: (identity) => call("recording the store's chain", () => sink.setChainIdentity(identity)),
    ...(settle !== undefined ? { settle: () => call('settling the store', () => settle.call(sink)) } : {}),
    ...(beginBulk !== undefined ? { beginBulk: () => call('starting a bulk load', () => beginBulk.call(sink)) } : {}),
    ...(inBulk !== undefined ? { inBulk: () => call('reading the bulk mode', () => inBulk.call(sink)) } : {}),
    ...(pending !== undefined ? { pendingTransactions: (limit: number) => call('reading the stored pending transactions', () => pending.call(sink, limit)) } : {}),
    ...(drop !== undefined ? { dropPendingTransactions: (hashes: readonly Hash[]) => call('dropping pending transactions', () => drop.call(sink, hashes)) } : {}),
    ...(withLogs !== undefined ? { blocksWithLogs: (addresses: readonly Address[], topic0: Hex) => call('finding blocks by their logs', () => withLogs.call(sink, addresses, topic0)) } : {}),
    ...(writeOps !== undefined
      ? { writeUserOperations: (blockHash: Hash, ops: readonly UserOperationRecord[]) => call(`writing the user operations of block ${blockHash}`, () => writeOps.call(sink, blockHash, ops)) }
      : {}),
  };
}
