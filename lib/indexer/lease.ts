/** The lease port's helpers: the holder's description, the lease errors and a sink that stops when its lease is lost (the port: lib/ports/lease.ts). */
import type { DataSink } from '../ports.ts';
import type { LeaseHolder } from '../ports/lease.ts';

export type { HeldLease, LeaseAttempt, LeaseHolder, StoreLease } from '../ports/lease.ts';

export function describeHolder(holder: LeaseHolder | null): string {
  return holder === null ? 'another process' : `pid ${holder.pid} on ${holder.host} since ${holder.since}`;
}

/** Another indexer holds the store's lease (and this one was not told to stand by). */
export class LeaseHeldError extends Error {
  override readonly name = 'LeaseHeldError';
  constructor(readonly holder: LeaseHolder | null) {
    super(`another indexer holds this store's lease: ${describeHolder(holder)} (run with --standby to wait and take over when it stops)`);
  }
}

/** The lease was lost while indexing: nothing more was written. */
export class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError';
  constructor() {
    super("lost this store's lease (the connection holding it is gone): stopped writing");
  }
}

/**
 * The sink, refusing every write once the lease is lost. Each write is one atomic transaction,
 * so a write refused or cut short leaves the store at its last whole batch.
 */
export function leasedSink(sink: DataSink, lost: AbortSignal): DataSink {
  const check = (): void => {
    if (lost.aborted) throw new LeaseLostError();
  };
  const guarded: DataSink = {
    ...sink,
    writeBlocks: async (bundles) => {
      check();
      await sink.writeBlocks(bundles);
    },
    writePendingTransactions: async (txs) => {
      check();
      await sink.writePendingTransactions(txs);
    },
    rollbackAbove: async (height) => {
      check();
      await sink.rollbackAbove(height);
    },
    setChainIdentity: async (identity) => {
      check();
      await sink.setChainIdentity(identity);
    },
    getIndexedHead: () => sink.getIndexedHead(),
    getChainIdentity: () => sink.getChainIdentity(),
  };
  if (sink.settle !== undefined) {
    const settle = sink.settle.bind(sink);
    guarded.settle = async () => {
      check();
      await settle();
    };
  }
  if (sink.beginBulk !== undefined) {
    const begin = sink.beginBulk.bind(sink);
    guarded.beginBulk = async () => {
      check();
      await begin();
    };
  }
  if (sink.inBulk !== undefined) guarded.inBulk = sink.inBulk.bind(sink);
  if (sink.dropPendingTransactions !== undefined) {
    const drop = sink.dropPendingTransactions.bind(sink);
    guarded.dropPendingTransactions = async (hashes) => {
      check();
      await drop(hashes);
    };
  }
  if (sink.pendingTransactions !== undefined) guarded.pendingTransactions = sink.pendingTransactions.bind(sink);
  if (sink.writeUserOperations !== undefined) {
    const writeOps = sink.writeUserOperations.bind(sink);
    guarded.writeUserOperations = async (blockHash, ops) => {
      check();
      return writeOps(blockHash, ops);
    };
  }
  return guarded;
}
