/**
 * The change feed: what each committed write changed, for live updates (SSE, the socket) and
 * for caches that must see another process's write at once.
 *
 * A writer emits one Change per call that changed anything, after its commit, in version order.
 * Across processes only a ChangeNotice travels (the version, the block range, a rollback
 * marker, pending hashes added and dropped): a listener derives the rest through the DataSource ports
 * (lib/feed/describe.ts), and catches up after a reconnect from the last version it saw (`since`).
 */
import type { Address, Hash } from '../domain/records.ts';

/** The small form of a change: what a store logs and what crosses processes. */
export interface ChangeNotice {
  /** the store's data version after the write (DataSource.getDataVersion, as a number) */
  readonly version: number;
  /** consensus blocks added, lowest to highest (null: none) */
  readonly blocks: { readonly from: number; readonly to: number } | null;
  /** blocks above this height were removed first (rollback, or a reorg replacing them); null: none */
  readonly rolledBackTo: number | null;
  /** pending transactions added */
  readonly pendingAdded: readonly Hash[];
  /** pending transactions that left the pool: mined in the added blocks, replaced (same sender and nonce) or gone from the node's pool */
  readonly pendingDropped: readonly Hash[];
  /**
   * the senders and receivers of the pending transactions dropped from the pool (not mined): their
   * rows are gone once the write commits, so a listener in another process learns them from here
   */
  readonly droppedParties?: readonly Address[];
}

/** What one write changed. */
export interface Change extends ChangeNotice {
  /** transactions of the added blocks */
  readonly transactions: readonly Hash[];
  /** addresses touched: from, to and created contracts of those transactions, token transfer parties, pending senders and receivers */
  readonly addresses: readonly Address[];
  /** tokens whose transfers the added blocks hold */
  readonly tokens: readonly Address[];
}

export type ChangeListener = (change: Change) => void;

/** The port: a store's (or a database's) changes. */
export interface ChangeFeed {
  /**
   * Call `listener` with every change from now on, once each, in version order (in process:
   * synchronously after the commit). Returns the unsubscribe function.
   */
  subscribe(listener: ChangeListener): () => void;
  /**
   * The changes after `version`, oldest first (a client that reconnects catches up from the
   * version it last saw). null: that version is too old to be derived; start afresh.
   */
  since(version: number): Promise<readonly Change[] | null>;
}
