/**
 * The DataSink port: the write side, used by the indexer and the fixture builder.
 */
import type { Address, BlockBundle, Hash, Hex, TransactionRecord, UserOperationRecord } from '../domain/records.ts';

/** Which chain a store holds; the indexer refuses to mix chains (dev chains restart often). */
export interface ChainIdentity {
  readonly chainId: number;
  /** hash of block 0 */
  readonly genesisHash: Hash;
}

/** A stored pending transaction as the pool diff sees it: its hash, sender and nonce. */
export interface StoredPending {
  readonly hash: Hash;
  readonly from: Address;
  readonly nonce: number;
}

/** The block-writing half of a DataSink (adapters compose it with their identity storage). */
export type BlockSink = Omit<DataSink, 'getChainIdentity' | 'setChainIdentity'>;

export interface DataSink {
  /**
   * Write blocks with everything in them, atomically. Writing a block that is already stored
   * (same number and hash) changes nothing. Pending transactions with the same hash are replaced.
   */
  writeBlocks(bundles: readonly BlockBundle[]): Promise<void>;
  /** Store transactions seen in the mempool (blockNumber null). Idempotent by hash. */
  writePendingTransactions(transactions: readonly TransactionRecord[]): Promise<void>;
  /**
   * Optional, for an indexer that follows the node's pool (with dropPendingTransactions): the
   * pending transactions stored, newest first (insertedAt DESC, hash ASC), at most `limit`.
   */
  pendingTransactions?(limit: number): Promise<readonly StoredPending[]>;
  /**
   * Optional, with pendingTransactions: remove these pending transactions — replaced (another of
   * the same sender and nonce) or gone from the node's pool — and what they counted. Hashes not
   * pending are ignored. A mined one leaves the pool through writeBlocks.
   */
  dropPendingTransactions?(hashes: readonly Hash[]): Promise<void>;
  /** Delete every block with number > height and everything derived from them. */
  rollbackAbove(height: number): Promise<void>;
  /** Highest stored block (number and hash), null when empty. */
  getIndexedHead(): Promise<{ readonly number: number; readonly hash: Hash } | null>;
  /** The chain this store holds, null before the first indexer run. */
  getChainIdentity(): Promise<ChainIdentity | null>;
  /** Remember the chain (replaces any previous identity). */
  setChainIdentity(identity: ChainIdentity): Promise<void>;
  /**
   * Optional, for a backfill of what older writes did not derive (user operations): the stored
   * consensus blocks holding a log emitted by one of `addresses` whose first topic is `topic0`,
   * lowest first.
   */
  blocksWithLogs?(addresses: readonly Address[], topic0: Hex): Promise<readonly { readonly number: number; readonly hash: Hash }[]>;
  /**
   * Optional, with blocksWithLogs: set the user operations of a stored consensus block (replacing
   * any it has; each one's blockHash must be `blockHash`). False, and nothing written, when no
   * consensus block with that hash is stored (a reorg took it).
   */
  writeUserOperations?(blockHash: Hash, operations: readonly UserOperationRecord[]): Promise<boolean>;
  /**
   * Optional upkeep after a bulk load: bring the store's planner statistics (and, on Postgres,
   * the visibility map that index-only reads rely on) up to date, so pages read as they will in
   * steady state. Changes no data. The indexer calls it once it has caught up after writing many
   * blocks (IndexerOptions.settleAfterBlocks).
   */
  settle?(): Promise<void>;
  /**
   * Optional, before writing a long stretch of blocks (a bulk catch-up): the store may defer
   * upkeep only reads need (e.g. the secondary indexes of the API's lists) until settle(),
   * which must then be called. Reads stay correct meanwhile, only slower. Idempotent, and safe
   * across a crash: whatever was deferred is restored by the next settle(). The indexer calls
   * it for a stretch of at least IndexerOptions.bulkAfterBlocks blocks.
   */
  beginBulk?(): Promise<void>;
  /**
   * Optional, with beginBulk: whether the store is in bulk mode (beginBulk called and not
   * settled since, e.g. by a run that stopped or crashed), so the indexer settles it on
   * catching up whatever it writes.
   */
  inBulk?(): Promise<boolean>;
}
