/**
 * Transactions: the filter, cursor and queries of transactions, pending ones included, and of a
 * transaction's state changes and trace frames.
 */
import type { Address, Hash, Hex, StateChangeRecord, TraceFrameRecord, TransactionKind, TransactionRecord } from '../domain/records.ts';
import type { BlockRange, Direction, Page } from './page.ts';

export interface TransactionFilter {
  /** validated: in a consensus block; pending: no block yet */
  readonly status: 'validated' | 'pending';
  /** OR-combined: a transaction matches when its `kinds` contain any of these */
  readonly kinds?: readonly TransactionKind[];
  /** OR-combined `0x` + 8 hex method ids, matched against `methodId` */
  readonly methodIds?: readonly Hex[];
  /** transactions from, to or creating this address (see `direction`) */
  readonly address?: Address;
  /** with address: 'to' matches `to` and `createdContract` */
  readonly direction?: Direction;
  /** in a block within the range (a pending transaction is in none, so it never matches) */
  readonly blocks?: BlockRange;
}
/**
 * validated order desc: (blockNumber DESC, index DESC); cursor `{blockNumber, index}`.
 * pending order desc: (insertedAt DESC, hash ASC); cursor `{insertedAt, hash}`.
 */
export type TransactionCursor =
  | { readonly blockNumber: number; readonly index: number }
  | { readonly insertedAt: number; readonly hash: Hash };

export interface PendingTransactionFilter {
  /** only transactions the indexer first saw at or after this instant (unix ms) */
  readonly insertedSince?: number;
}

/** The transaction queries of a DataSource. */
export interface TransactionQueries {
  getTransaction(hash: Hash): Promise<TransactionRecord | null>;
  /**
   * Optional batch of getTransaction (each hash answered as getTransaction answers it). Lists
   * that need the transactions of a page's records (the CSV exports) use it when present, else
   * one getTransaction per hash.
   */
  getTransactions?(hashes: readonly Hash[]): Promise<readonly TransactionRecord[]>;
  listTransactions(
    filter: TransactionFilter,
    page: Page<TransactionCursor>,
  ): Promise<readonly TransactionRecord[]>;
  /**
   * Optional: all state changes of a transaction, ordered by ordinal (a bounded, per-transaction
   * list). Without it a transaction's state changes answer as for one the indexer kept none of:
   * an empty list.
   */
  listStateChanges?(transactionHash: Hash): Promise<readonly StateChangeRecord[]>;
  /**
   * The stored callTracer frames of a transaction in a consensus block, by index ASC (a bounded,
   * per-transaction list); empty when the indexer kept none (a node without traces). Optional:
   * without it every raw trace answers as one the indexer kept none of (404, RAW_TRACE_UNAVAILABLE).
   */
  getTransactionTrace?(transactionHash: Hash): Promise<readonly TraceFrameRecord[]>;
  /** Pending (mempool) transactions, optionally only those seen since an instant. */
  countPendingTransactions(filter: PendingTransactionFilter): Promise<number>;
}
