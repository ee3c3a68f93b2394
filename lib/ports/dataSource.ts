/**
 * The DataSource port: the read side, one per chain, composed of the queries of each record
 * family (lib/ports/<family>.ts). A handful of general record queries that the endpoints compose,
 * each with a filter (address and direction, block range, token, ...) and a page: an optional
 * keyset cursor (`after`), a `limit` and an `order`. Each list states its order in its 'desc'
 * form; 'asc' is the exact reverse (every column flipped), so one index serves both. Every list
 * query returns at most `limit` records, strictly after the cursor in the page's order. Orders
 * are total (ties are broken by the listed columns), so a walk of pages by the cursor of the last
 * record sees every record exactly once, in either order.
 */
import type { AddressQueries } from './addresses.ts';
import type { BlockQueries } from './blocks.ts';
import type { CoinBalanceQueries } from './coinBalances.ts';
import type { ContractQueries } from './contracts.ts';
import type { InternalTransactionQueries } from './internalTransactions.ts';
import type { LogQueries } from './logs.ts';
import type { StatsQueries } from './stats.ts';
import type { TokenBalanceQueries } from './tokenBalances.ts';
import type { TokenQueries } from './tokens.ts';
import type { TokenTransferQueries } from './tokenTransfers.ts';
import type { TransactionQueries } from './transactions.ts';
import type { UserOperationQueries } from './userOperations.ts';
import type { WithdrawalQueries } from './withdrawals.ts';

export interface DataSource
  extends BlockQueries,
    TransactionQueries,
    InternalTransactionQueries,
    TokenTransferQueries,
    LogQueries,
    CoinBalanceQueries,
    TokenBalanceQueries,
    TokenQueries,
    AddressQueries,
    WithdrawalQueries,
    ContractQueries,
    StatsQueries,
    UserOperationQueries {
  /**
   * Optional: a token that changes whenever anything this source answers may have changed (a
   * block written or rolled back, new pending transactions) — also when another process
   * wrote. Explorers cache rendered answers per version; a source without it is not cached.
   */
  getDataVersion?(): Promise<string>;
  /**
   * Optional, beside getDataVersion: what this store object knows of its data version without a
   * query (see DataVersionSignal). Without it, an explorer polls getDataVersion.
   */
  readonly dataVersionSignal?: DataVersionSignal;
  /**
   * Optional: the store's read replicas (a SQL store on Postgres streaming replicas). An
   * explorer then reads each request from one copy, `replicas.pick()`: its data version and its
   * records alike, so an answer is cached under the version of the copy that served it.
   */
  readonly replicas?: ReadReplicas;
}

/**
 * The read replicas of a store, as one host sees them: which copy a request reads, and how each
 * replica is doing (for `/ready` and `/metrics`).
 */
export interface ReadReplicas {
  /**
   * The copy one request reads, the whole request long: a replica in use (spread across them
   * in turn), or the primary when none is. `atLeastBlock` (a block the request names, such as a
   * page cursor's `block_number`): a copy that holds that block — a replica behind it would lack
   * the rows below the cursor — else the primary.
   */
  pick(atLeastBlock?: number): DataSource;
  /** each replica's state, in the order they were given */
  states(): readonly ReplicaState[];
}

/** One read replica, as last probed. */
export interface ReplicaState {
  /** where it is: `host:port/database`, without user or password */
  readonly name: string;
  /** requests read from it: it answers and is within the allowed lag */
  readonly inUse: boolean;
  /** it answered the last probe (and no request since failed to reach it) */
  readonly reachable: boolean;
  /**
   * seconds since the primary first had a write this replica has not replayed yet (0: it has
   * every write the primary had at the last probe); null until probed
   */
  readonly lagSeconds: number | null;
  /** writes (data versions) behind the primary at the last probe; null until probed */
  readonly versionsBehind: number | null;
  /** its highest block at the last probe (null: none, or not probed) */
  readonly highestBlock: number | null;
}

/**
 * A store object's in-process data version: `local()` changes synchronously once a write through
 * this object (its DataSink) has committed, so a cache keyed by it sees the write on the very
 * next request. `shared: false` — no other writer can exist (an in-memory store): `local()` is
 * the whole version. `shared: true` — other processes may write the same database: readers also
 * poll getDataVersion (an explorer at most every `cache.versionPollMs`).
 */
export interface DataVersionSignal {
  readonly shared: boolean;
  local(): number;
}

/**
 * The optional queries of a DataSource: capabilities a store may lack. Each one's doc says what
 * the host does without it (a wider query, the answer for data the indexer did not keep, or
 * 501 `{"message": "… not available from this store"}` where no other query answers at a
 * bounded cost).
 */
export type OptionalQuery =
  | 'getTransactions'
  | 'getCoinBalance'
  | 'listBlockFigures'
  | 'listStateChanges'
  | 'getTransactionTrace'
  | 'listAddresses'
  | 'listAccounts'
  | 'getAddressCounters'
  | 'getWithdrawalTotals'
  | 'getProxyHistory'
  | 'countContracts'
  | 'sumBlocks'
  | 'listContractActivity';

/**
 * A DataSource that reports a data version and answers every optional query and the user
 * operations (both built-in stores do).
 */
export type VersionedDataSource = DataSource & Required<Pick<DataSource, 'getDataVersion' | OptionalQuery>> & Required<UserOperationQueries>;
