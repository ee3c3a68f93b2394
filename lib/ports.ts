/**
 * The ports lib defines and adapters implement.
 *
 * DataSource: the read side, one per chain. A handful of general record queries that the
 * endpoints compose, each with a filter (address and direction, block range, token, ...) and a
 * page: an optional keyset cursor (`after`), a `limit` and an `order`. Each list states its
 * order in its 'desc' form; 'asc' is the exact reverse (every column flipped), so one index
 * serves both. Every list query returns at most `limit` records, strictly after the cursor in
 * the page's order. Orders are total (ties are broken by the listed columns), so a walk of
 * pages by the cursor of the last record sees every record exactly once, in either order.
 *
 * DataSink: the write side, used by the indexer and the fixture builder.
 */
import type {
  AccountRecord,
  Address,
  AddressCountersRecord,
  AddressRecord,
  AddressView,
  BlockBundle,
  BlockRecord,
  CoinBalanceRecord,
  ContractCodeRecord,
  ProxyRecord,
  Hash,
  Hex,
  InternalTransactionRecord,
  LogRecord,
  NftTokenType,
  StateChangeRecord,
  TokenInstanceRecord,
  TokenRecord,
  TokenTransferRecord,
  TokenType,
  TraceFrameRecord,
  TransactionKind,
  TransactionRecord,
  WithdrawalRecord,
} from './domain/records.ts';

export type Order = 'desc' | 'asc';

export interface Page<C> {
  /** the key of the last record of the previous page; null for the first page */
  readonly after: C | null;
  readonly limit: number;
  /** 'desc': the list's stated order; 'asc': its exact reverse */
  readonly order: Order;
}

/** Block numbers from `from` to `to`, both inclusive; an absent bound is open. */
export interface BlockRange {
  readonly from?: number;
  readonly to?: number;
}

/**
 * Which side of a record an address filter matches: 'from' = the sender; 'to' = the receiver
 * (or, where the record can create one, the created contract); 'any' (the default) = either.
 */
export type Direction = 'from' | 'to' | 'any';

// ---- blocks ---------------------------------------------------------------------------------

export interface BlockFilter {
  /** 'block' = consensus blocks; 'reorg' = non-consensus blocks; 'uncle' = uncles (none stored) */
  readonly kind: 'block' | 'uncle' | 'reorg';
  /** only blocks mined by this address (combined with kind) */
  readonly miner?: Address;
  readonly blocks?: BlockRange;
}
/** Order desc: (number DESC, hash ASC). Cursor: strictly past `number`. */
export interface BlockCursor {
  readonly number: number;
}
/**
 * A block's figures (listBlockFigures): the few columns the chain statistics read from recent
 * blocks (average block time, gas price estimates, network utilization), without the rest of
 * the record.
 */
export type BlockFiguresRecord = Pick<BlockRecord, 'number' | 'timestamp' | 'gasUsed' | 'gasLimit' | 'transactionFees'>;

// ---- transactions ---------------------------------------------------------------------------

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

// ---- internal transactions -------------------------------------------------------------------

/** The top-level call (type call, index 0) is never listed; index-0 creates are. */
export interface InternalTransactionFilter {
  /** traces from, to or creating this address (see `direction`) */
  readonly address?: Address;
  /** with address: 'to' matches `to` and `createdContract` */
  readonly direction?: Direction;
  readonly transactionHash?: Hash;
  readonly blocks?: BlockRange;
}
/**
 * Order desc: (blockNumber DESC, transactionIndex DESC, index DESC). With transactionHash the
 * list is one transaction's, so only the cursor's `index` counts.
 */
export interface InternalTransactionCursor {
  readonly blockNumber: number;
  readonly transactionIndex: number;
  readonly index: number;
}

// ---- token transfers -------------------------------------------------------------------------

export interface TokenTransferFilter {
  readonly tokenAddress?: Address;
  /** transfers whose tokenIds contain this id (needs tokenAddress) */
  readonly tokenId?: bigint;
  readonly transactionHash?: Hash;
  /** token_type IN types */
  readonly types?: readonly TokenType[];
  /** OR-combined `0x` + 8 hex method ids of the parent transaction's input (`methodId`); empty: none match */
  readonly methodIds?: readonly Hex[];
  /** transfers from or to this address (see `direction`) */
  readonly address?: Address;
  readonly direction?: Direction;
  readonly blocks?: BlockRange;
}
/**
 * Order desc: (blockNumber DESC, logIndex DESC). With transactionHash only the cursor's
 * `logIndex` counts. `inclusive` also returns the record exactly at the cursor (used to
 * re-read an ERC-1155 batch that a page split).
 */
export interface TokenTransferCursor {
  readonly blockNumber: number;
  readonly logIndex: number;
  readonly inclusive?: boolean;
}

/**
 * What countTokenTransfers counts: the transfers of a token, or those of its transfers that
 * carry one id (an ERC-1155 batch counts once). An index range count, bounded by the token's
 * (or the id's) own transfers, not by the chain.
 */
export interface TokenTransferCountFilter {
  readonly tokenAddress: Address;
  readonly tokenId?: bigint;
}

// ---- logs -----------------------------------------------------------------------------------

export interface LogFilter {
  readonly transactionHash?: Hash;
  /** logs emitted by this contract */
  readonly address?: Address;
  readonly blocks?: BlockRange;
}
/** Order desc: (blockNumber DESC, index DESC). With transactionHash only the cursor's `index` counts. */
export interface LogCursor {
  readonly blockNumber: number;
  readonly index: number;
}

// ---- coin balances --------------------------------------------------------------------------

export interface CoinBalanceFilter {
  readonly address: Address;
  readonly blocks?: BlockRange;
}
/**
 * Order desc: blockNumber DESC — the address's native balance as of each block where the
 * indexer recorded it (one record per address and block). Cursor: strictly past `blockNumber`.
 */
export interface CoinBalanceCursor {
  readonly blockNumber: number;
}

// ---- token balances --------------------------------------------------------------------------

export interface TokenBalanceFilter {
  readonly holder: Address;
  readonly types?: readonly TokenType[];
}
/** A current balance (latest per holder/token/id) with value > 0 (ERC-7984: any value). */
export interface CurrentTokenBalance {
  readonly holder: Address;
  readonly tokenAddress: Address;
  readonly tokenType: TokenType;
  readonly tokenId: bigint | null;
  readonly value: bigint;
}
/** A current balance with its token's record (null while the store holds no row for the token). */
export interface TokenHolding extends CurrentTokenBalance {
  readonly token: TokenRecord | null;
}
/**
 * Order desc: (value DESC, tokenAddress DESC, tokenId DESC with null lowest).
 * Cursor holds the last row's values; tokenId null compares below every id.
 */
export interface TokenBalanceCursor {
  readonly value: bigint;
  readonly tokenAddress: Address;
  readonly tokenId: bigint | null;
}

// ---- token holders --------------------------------------------------------------------------

/** The holders of a token (every current balance row: ERC-1155/404 one per id), or of one id. */
export interface TokenHolderFilter {
  readonly tokenAddress: Address;
  /** only balances of this id (ERC-721 balances are per contract, so none match) */
  readonly tokenId?: bigint;
}
/**
 * Current balances with value > 0 (ERC-7984: any value), the zero address excluded.
 * Order desc: (value DESC, holder DESC, tokenId DESC with null lowest).
 */
export interface TokenHolderCursor {
  readonly value: bigint;
  readonly holder: Address;
  readonly tokenId: bigint | null;
}

// ---- NFT collections -------------------------------------------------------------------------

export interface NftCollectionFilter {
  readonly holder: Address;
  /** effective NFT types, in any order; the result follows the type rank of NFT_TOKEN_TYPES */
  readonly types: readonly NftTokenType[];
  /** how many held ids each collection carries in `holdings` (the highest ids) */
  readonly holdings: number;
}
export interface NftCollectionRecord {
  readonly tokenAddress: Address;
  readonly tokenType: NftTokenType;
  /** ERC-721: NFTs held; ERC-1155/404: distinct ids held */
  readonly amount: bigint;
  /** up to `filter.holdings` held ids with their balances, tokenId DESC (ERC-721 value is 1) */
  readonly holdings: readonly { readonly tokenId: bigint; readonly value: bigint }[];
}
/** Order desc: (type rank in NFT_TOKEN_TYPES DESC, tokenAddress DESC). */
export interface NftCollectionCursor {
  readonly tokenType: NftTokenType;
  readonly tokenAddress: Address;
}

// ---- token instances -------------------------------------------------------------------------

export interface TokenInstanceFilter {
  readonly tokenAddress: Address;
  /** ERC-721: instances owned by holder; others: ids the holder has a positive balance of */
  readonly holder?: Address;
}
/** Order desc: tokenId DESC. */
export interface TokenInstanceCursor {
  readonly tokenId: bigint;
}
export interface TokenInstanceKey {
  readonly tokenAddress: Address;
  readonly tokenId: bigint;
}
export interface HeldTokenInstance {
  readonly instance: TokenInstanceRecord;
  /** the holder's balance of this id (1 for ERC-721); null without a holder filter */
  readonly value: bigint | null;
}

// ---- withdrawals -----------------------------------------------------------------------------

/** Beacon-chain withdrawals of consensus blocks. */
export interface WithdrawalFilter {
  /** withdrawals to this address */
  readonly address?: Address;
  readonly blocks?: BlockRange;
}
/**
 * Order desc: (index DESC, blockNumber DESC) — the index is unique on a real chain; the block
 * number only orders rows a malformed source repeated. Cursor: strictly below `index`.
 */
export interface WithdrawalCursor {
  readonly index: number;
}
/** Kept by the store as blocks are written and rolled back (never a scan per request). */
export interface WithdrawalTotals {
  /** withdrawals stored in consensus blocks */
  readonly count: bigint;
  /** Σ amount (wei) of those withdrawals */
  readonly sum: bigint;
}

// ---- chain statistics (counters, daily aggregates, contract activity) -----------------------

/**
 * Chain-wide counters, kept by the sink as blocks are written and rolled back (reading them
 * costs the same on any chain size).
 */
export interface ChainCounters {
  /** consensus blocks */
  readonly blocks: number;
  /** transactions in consensus blocks (pending ones: countPendingTransactions) */
  readonly transactions: number;
  /** distinct addresses with a coin balance record in a consensus block */
  readonly addresses: number;
  /** Σ gasUsed of consensus blocks */
  readonly gasUsed: bigint;
  /** Σ of the positive current coin balances (wei): each address's latest consensus coin balance record */
  readonly coinSupply: bigint;
  /** the current coin balance of the zero address (wei; 0 when it has none), part of coinSupply when positive */
  readonly zeroAddressCoinBalance: bigint;
}

/** The transactions of the consensus blocks of one UTC day (kept by the sink). */
export interface DailyStatsRecord {
  /** YYYY-MM-DD (UTC) */
  readonly date: string;
  readonly transactionsCount: number;
  readonly gasUsed: bigint;
  /** Σ block transactionFees */
  readonly feeSum: bigint;
}

/** UTC days `from` to `to` (YYYY-MM-DD), both inclusive. */
export interface DateRange {
  readonly from: string;
  readonly to: string;
}

/** Unix seconds `from` to `to`, both inclusive. */
export interface TimeRange {
  readonly from: number;
  readonly to: number;
}

/** Sums over the consensus blocks of a time range. */
export interface BlockTotals {
  readonly blocks: number;
  readonly transactions: number;
  readonly gasUsed: bigint;
  readonly fees: bigint;
}

export interface PendingTransactionFilter {
  /** only transactions the indexer first saw at or after this instant (unix ms) */
  readonly insertedSince?: number;
}

/**
 * Transactions to contracts (addresses that currently have code), grouped by contract: either
 * those of consensus blocks whose timestamp is in `time`, or the daily aggregates of `days`.
 */
export interface ContractActivityFilter {
  readonly window: { readonly time: TimeRange } | { readonly days: DateRange };
  /** the first sort key (default transactionsCount); the other count follows, then contract */
  readonly sort?: 'transactionsCount' | 'gasUsed';
}
export interface ContractActivityRecord {
  readonly contract: Address;
  readonly transactionsCount: number;
  readonly gasUsed: bigint;
}
/**
 * Order desc: (sort key DESC, the other key DESC, contract ASC); the cursor holds the last
 * row's three values.
 */
export interface ContractActivityCursor {
  readonly transactionsCount: number;
  readonly gasUsed: bigint;
  readonly contract: Address;
}

// ---- accounts (top accounts) -----------------------------------------------------------------

/** Addresses whose current coin balance is > 0, by balance or by transactions count. */
export interface AccountFilter {
  readonly sort: 'balance' | 'transactionsCount';
}
/**
 * Blockscout's orders, where the address always ascends (so 'asc' is not the exact reverse):
 * - balance, desc: (balance DESC, address ASC); asc: (balance ASC, address ASC)
 * - transactionsCount, desc: (transactionsCount DESC, balance DESC, address ASC);
 *   asc: (transactionsCount ASC, balance DESC, address ASC)
 * The cursor holds the last record's values (transactionsCount unused by the balance sort).
 */
export interface AccountCursor {
  readonly balance: bigint;
  readonly address: Address;
  readonly transactionsCount: bigint;
}

// ---- contracts -------------------------------------------------------------------------------

/**
 * Contracts the indexer saw created in consensus blocks: one record per creation (an address
 * created again after a self-destruct is listed once per creation).
 */
export interface ContractFilter {
  /** lower-case hex digits (optionally `0x`-prefixed): contracts whose address text contains them */
  readonly addressContains?: string;
}
/** Order desc: (blockNumber DESC, address DESC) — newest first. */
export interface ContractCursor {
  readonly blockNumber: number;
  readonly address: Address;
}
/** What countContracts counts: every contract, or those created at or after a unix time. */
export interface ContractCountFilter {
  readonly createdSince?: number;
}

// ---- tokens (the /tokens list, search) -------------------------------------------------------

/**
 * Tokens, filtered. Names and symbols match by prefix after ASCII lower-casing (see
 * domain/text.ts: asciiLower); a blank prefix (or none) matches every token.
 */
export interface TokenListFilter {
  /** name or symbol, ASCII-lower-cased, starts with this prefix (ASCII-lower-cased by the store) */
  readonly prefix?: string;
  /** token type IN types; absent or empty: every type */
  readonly types?: readonly TokenType[];
}
/**
 * Order desc: (holdersCount DESC, name ASC with null names last, address ASC); names compare by
 * code point (domain/text.ts: compareCodePoints). The cursor is the last record's values.
 */
export interface TokenListCursor {
  readonly holdersCount: bigint;
  readonly name: string | null;
  readonly address: Address;
}

// ---- addresses by name -----------------------------------------------------------------------

/** Named addresses whose name, ASCII-lower-cased, starts with the prefix (ASCII-lower-cased). */
export interface AddressListFilter {
  readonly namePrefix: string;
  /** only contracts (true) or only accounts (false); absent: both */
  readonly isContract?: boolean;
}
/** Order desc: (asciiLower(name) ASC by code point, hash ASC). */
export interface AddressListCursor {
  readonly name: string;
  readonly hash: Address;
}

// ---- the ports -------------------------------------------------------------------------------

export type BlockRef = { readonly number: number } | { readonly hash: Hash };

export interface DataSource {
  /** By number: the consensus block at that height, else a non-consensus one, else null. */
  getBlock(ref: BlockRef): Promise<BlockRecord | null>;
  getTransaction(hash: Hash): Promise<TransactionRecord | null>;
  getToken(address: Address): Promise<TokenRecord | null>;
  getTokenInstance(key: TokenInstanceKey): Promise<TokenInstanceRecord | null>;
  /** highest consensus block number, null when empty */
  getHighestBlockNumber(): Promise<number | null>;

  /** Batch lookups: one call per page, any order, missing keys simply absent. */
  getAddresses(hashes: readonly Address[]): Promise<readonly AddressRecord[]>;
  /**
   * A page's addresses as its renderers need them, in one query: for each address that has a
   * record, a token or proxy changes, its record (or null), its token's type and whether it is a
   * proxy; addresses with none of them absent.
   */
  getAddressViews(hashes: readonly Address[]): Promise<readonly AddressView[]>;
  getTokens(addresses: readonly Address[]): Promise<readonly TokenRecord[]>;
  getTokenInstances(keys: readonly TokenInstanceKey[]): Promise<readonly TokenInstanceRecord[]>;
  /**
   * Optional batch of getTransaction (each hash answered as getTransaction answers it). Lists
   * that need the transactions of a page's records (the CSV exports) use it when present, else
   * one getTransaction per hash.
   */
  getTransactions?(hashes: readonly Hash[]): Promise<readonly TransactionRecord[]>;

  listBlocks(filter: BlockFilter, page: Page<BlockCursor>): Promise<readonly BlockRecord[]>;
  /** listBlocks narrowed to each block's figures: the same filter, order, cursor and records. */
  listBlockFigures(filter: BlockFilter, page: Page<BlockCursor>): Promise<readonly BlockFiguresRecord[]>;
  listTransactions(
    filter: TransactionFilter,
    page: Page<TransactionCursor>,
  ): Promise<readonly TransactionRecord[]>;
  listInternalTransactions(
    filter: InternalTransactionFilter,
    page: Page<InternalTransactionCursor>,
  ): Promise<readonly InternalTransactionRecord[]>;
  listTokenTransfers(
    filter: TokenTransferFilter,
    page: Page<TokenTransferCursor>,
  ): Promise<readonly TokenTransferRecord[]>;
  /** How many (consensus) token transfers match; see TokenTransferCountFilter. */
  countTokenTransfers(filter: TokenTransferCountFilter): Promise<number>;
  listLogs(filter: LogFilter, page: Page<LogCursor>): Promise<readonly LogRecord[]>;
  /** Coin balance history of one address (the newest record is its current balance). */
  listCoinBalances(filter: CoinBalanceFilter, page: Page<CoinBalanceCursor>): Promise<readonly CoinBalanceRecord[]>;
  listTokenBalances(
    filter: TokenBalanceFilter,
    page: Page<TokenBalanceCursor>,
  ): Promise<readonly CurrentTokenBalance[]>;
  /** listTokenBalances with each balance's token record read in the same query (the same filter, order, cursor and rows). */
  listTokenHoldings(filter: TokenBalanceFilter, page: Page<TokenBalanceCursor>): Promise<readonly TokenHolding[]>;
  listTokenHolders(filter: TokenHolderFilter, page: Page<TokenHolderCursor>): Promise<readonly CurrentTokenBalance[]>;
  /** Addresses with a positive current coin balance and their transactions count (see AccountCursor). */
  listAccounts(filter: AccountFilter, page: Page<AccountCursor>): Promise<readonly AccountRecord[]>;
  /** Batch: the kept counters of these addresses (a key lookup each); addresses whose four counters are all 0 are absent. */
  getAddressCounters(addresses: readonly Address[]): Promise<readonly AddressCountersRecord[]>;
  /**
   * Batch: the current coin balance of these addresses (each one's latest consensus coin balance
   * record; a key lookup each), in the order asked, each once; addresses without one are absent.
   */
  getCoinBalances(addresses: readonly Address[]): Promise<readonly CoinBalanceRecord[]>;
  listNftCollections(
    filter: NftCollectionFilter,
    page: Page<NftCollectionCursor>,
  ): Promise<readonly NftCollectionRecord[]>;
  listTokenInstances(
    filter: TokenInstanceFilter,
    page: Page<TokenInstanceCursor>,
  ): Promise<readonly HeldTokenInstance[]>;
  listWithdrawals(filter: WithdrawalFilter, page: Page<WithdrawalCursor>): Promise<readonly WithdrawalRecord[]>;
  /** Count and sum of the stored withdrawals (maintained on write and rollback). */
  getWithdrawalTotals(): Promise<WithdrawalTotals>;
  /** Tokens by holders count (see TokenListFilter, TokenListCursor). */
  listTokens(filter: TokenListFilter, page: Page<TokenListCursor>): Promise<readonly TokenRecord[]>;
  /** Named addresses by name prefix (see AddressListFilter, AddressListCursor). */
  listAddresses(filter: AddressListFilter, page: Page<AddressListCursor>): Promise<readonly AddressRecord[]>;
  /** All state changes of a transaction, ordered by ordinal (a bounded, per-transaction list). */
  listStateChanges(transactionHash: Hash): Promise<readonly StateChangeRecord[]>;
  /**
   * The stored callTracer frames of a transaction in a consensus block, by index ASC (a bounded,
   * per-transaction list); empty when the indexer kept none (a node without traces).
   */
  getTransactionTrace(transactionHash: Hash): Promise<readonly TraceFrameRecord[]>;
  /** Batch lookup of created contracts (each address's latest creation); missing addresses absent. */
  getContracts(addresses: readonly Address[]): Promise<readonly ContractCodeRecord[]>;
  /**
   * Batch lookup of proxies' implementation changes (lib/proxy/detect.ts), every change of each
   * address, oldest first (block, transaction index, then proxy); lib/proxy/history.ts picks the one in force
   * at a block. Addresses that are no proxy have none.
   */
  getProxyHistory(addresses: readonly Address[]): Promise<readonly ProxyRecord[]>;
  listContracts(filter: ContractFilter, page: Page<ContractCursor>): Promise<readonly ContractCodeRecord[]>;
  /**
   * How many creations match: all of them from a kept counter, or those at or after a unix time by
   * an index range (bounded by the recent contracts, not the chain).
   */
  countContracts(filter: ContractCountFilter): Promise<number>;

  /** Chain-wide counters (kept by the sink; a constant-cost read). */
  getChainCounters(): Promise<ChainCounters>;
  /** Pending (mempool) transactions, optionally only those seen since an instant. */
  countPendingTransactions(filter: PendingTransactionFilter): Promise<number>;
  /** The daily aggregates of the days in range that have any consensus block, date DESC. */
  listDailyStats(range: DateRange): Promise<readonly DailyStatsRecord[]>;
  /** Sums over the consensus blocks whose timestamp is in range (a scan of that window's blocks). */
  sumBlocks(range: TimeRange): Promise<BlockTotals>;
  /** Contract activity (hot contracts); see ContractActivityFilter and ContractActivityCursor. */
  listContractActivity(
    filter: ContractActivityFilter,
    page: Page<ContractActivityCursor>,
  ): Promise<readonly ContractActivityRecord[]>;

  /**
   * Optional: the current coin balance of an address (its latest coin balance record in a
   * consensus block), null when the store has none. `eth_getBalance` answers from it.
   */
  getCoinBalance?(address: Address): Promise<bigint | null>;

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

/** A DataSource that reports a data version (both built-in stores do). */
export type VersionedDataSource = DataSource & { getDataVersion(): Promise<string> };

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
