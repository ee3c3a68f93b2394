/**
 * One writer per store: the lease port. The indexer takes the store's lease before it writes
 * anything; a second indexer on the same store either stops at once, naming the holder, or
 * (standby) asks again every second until the holder is gone and takes over from the stored head.
 *
 * lib defines the port; adapters implement it (sql: a Postgres session-level advisory lock on a
 * connection of its own, or an OS-level lock on a file beside the SQLite database; memory: an
 * in-process lease). A lease the adapter finds lost (its connection gone) aborts `lost`: the
 * indexer writes nothing more and its run ends with LeaseLostError.
 */
import type { DataSink } from '../ports.ts';

/** who holds a lease */
export interface LeaseHolder {
  readonly host: string;
  readonly pid: number;
  /** ISO time the lease was taken */
  readonly since: string;
}

export interface HeldLease {
  /** this process, as the holder */
  readonly holder: LeaseHolder;
  /** aborted when the adapter finds the lease lost (e.g. the connection holding it died) */
  readonly lost: AbortSignal;
  release(): Promise<void>;
}

export type LeaseAttempt =
  | { readonly acquired: true; readonly lease: HeldLease }
  /** held by another: its holder when the store can tell */
  | { readonly acquired: false; readonly holder: LeaseHolder | null };

/** The port: a store's writer lease. */
export interface StoreLease {
  /** take the lease if free, without waiting */
  tryAcquire(): Promise<LeaseAttempt>;
}

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
  return guarded;
}
