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
