/**
 * Domain records: what storage holds and what the DataSource returns.
 *
 * Conventions (every adapter follows them):
 * - hashes and addresses are lower-case `0x` hex (`Address`, `Hash`, `Hex`);
 * - unbounded integers (wei, gas, token ids, balances, supply) are `bigint`;
 * - block numbers, positions and log indexes are plain `number` (they stay below 2^53);
 * - timestamps are unix seconds (`number`); `insertedAt` is unix milliseconds.
 * Rendering (decimal strings, checksums, ISO dates) belongs to lib/render, never here.
 */

import type { UserOperationRecord } from './userOperations.ts';

export type { EntryPointVersion, SponsorType, UserOperationRecord } from './userOperations.ts';

import type { Address, Hash, Hex } from './hex.ts';

export type { Address, Hash, Hex } from './hex.ts';

export const TOKEN_TYPES = ['ERC-20', 'ERC-721', 'ERC-1155', 'ERC-404', 'ERC-7984'] as const;
export type TokenType = (typeof TOKEN_TYPES)[number];

export const NFT_TOKEN_TYPES = ['ERC-721', 'ERC-1155', 'ERC-404'] as const;
export type NftTokenType = (typeof NFT_TOKEN_TYPES)[number];

export const TRANSACTION_KINDS = [
  'coin_transfer',
  'contract_call',
  'contract_creation',
  'token_creation',
  'token_transfer',
  'blob_transaction',
  'set_code_transaction',
] as const;
/** The `transaction_types` values, in the order Blockscout emits them. */
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];

export interface BlockRecord {
  readonly number: number;
  readonly hash: Hash;
  readonly parentHash: Hash;
  readonly timestamp: number;
  readonly miner: Address;
  readonly size: number | null;
  readonly gasLimit: bigint;
  readonly gasUsed: bigint;
  readonly baseFeePerGas: bigint | null;
  readonly difficulty: bigint | null;
  readonly totalDifficulty: bigint | null;
  /** 8-byte hex nonce, e.g. 0x0000000000000000 */
  readonly nonce: Hex;
  readonly extraData: Hex;
  readonly stateRoot: Hash | null;
  /** false for blocks that lost consensus (kept for /blocks?type=reorg) */
  readonly consensus: boolean;
  readonly unclesHashes: readonly Hash[];
  /** Derived at write time from the block's transactions (see lib/ingest). */
  readonly transactionsCount: number;
  readonly internalTransactionsCount: number;
  /** Σ gasUsed × effective gas price */
  readonly transactionFees: bigint;
  /** Σ gasUsed × baseFee (0 without base fee) */
  readonly burntFees: bigint;
  /** Σ min(maxPriority, maxFee − baseFee) × gasUsed (legacy: gasPrice − baseFee) */
  readonly priorityFee: bigint;
}

/** A transaction's signature as the node reports it (`v` verbatim: 27/28, EIP-155, or the y parity of a typed one). */
export interface TransactionSignature {
  readonly r: Hex;
  readonly s: Hex;
  readonly v: bigint;
  /** typed transactions only; null where the node does not report it */
  readonly yParity: number | null;
}

export interface TransactionRecord {
  readonly hash: Hash;
  /** null while pending */
  readonly blockNumber: number | null;
  readonly blockHash: Hash | null;
  /** position in block; null while pending */
  readonly index: number | null;
  /** block timestamp (copied from the block at write time); null while pending */
  readonly timestamp: number | null;
  /** block base fee (copied from the block at write time); null while pending */
  readonly baseFeePerGas: bigint | null;
  readonly from: Address;
  /** null for contract creation */
  readonly to: Address | null;
  readonly createdContract: Address | null;
  readonly value: bigint;
  /** gas limit */
  readonly gas: bigint;
  /** legacy gas price, or the effective gas price from the receipt; null when unknown */
  readonly gasPrice: bigint | null;
  readonly maxFeePerGas: bigint | null;
  readonly maxPriorityFeePerGas: bigint | null;
  readonly gasUsed: bigint | null;
  readonly status: 'ok' | 'error' | null;
  /** error text for failed transactions: 'Reverted', 'execution reverted', 'out of gas', ... */
  readonly error: string | null;
  /** raw revert data (ABI-encoded Error(string)/Panic(uint256) or custom), when known */
  readonly revertReason: Hex | null;
  readonly nonce: number;
  /** EIP-2718 type */
  readonly type: number | null;
  readonly input: Hex;
  /** first 4 bytes of input (`0x` + 8 hex) or null when input is shorter */
  readonly methodId: Hex | null;
  /** when the indexer first saw it (unix ms); orders pending transactions */
  readonly insertedAt: number;
  /** derived at write time (lib/ingest): transaction_types of the spec, in order */
  readonly kinds: readonly TransactionKind[];
  /** true when any internal transaction of this tx failed; null when traces are unknown */
  readonly hasErrorInInternalTransactions: boolean | null;
  /** the signature, when the indexer read it from the node (absent in records built without one) */
  readonly signature?: TransactionSignature;
}

export interface InternalTransactionRecord {
  readonly transactionHash: Hash;
  readonly blockNumber: number;
  readonly blockHash: Hash;
  readonly transactionIndex: number;
  /** trace index within the transaction; 0 is the top-level call */
  readonly index: number;
  readonly timestamp: number;
  /** call type for calls (call, delegatecall, staticcall, callcode), else create, create2, selfdestruct */
  readonly type: string;
  readonly from: Address;
  readonly to: Address | null;
  readonly createdContract: Address | null;
  readonly value: bigint;
  readonly gas: bigint | null;
  readonly gasUsed: bigint | null;
  readonly error: string | null;
}

export interface LogRecord {
  readonly transactionHash: Hash;
  readonly blockHash: Hash;
  readonly blockNumber: number;
  readonly transactionIndex: number;
  /** log index within the block */
  readonly index: number;
  readonly timestamp: number;
  readonly address: Address;
  /** 0 to 4 topics */
  readonly topics: readonly Hex[];
  readonly data: Hex;
}

export interface TokenRecord {
  readonly address: Address;
  readonly type: TokenType;
  readonly name: string | null;
  readonly symbol: string | null;
  readonly decimals: bigint | null;
  readonly totalSupply: bigint | null;
  /** maintained by the sink: holders with a positive current balance, zero address excluded */
  readonly holdersCount: bigint;
  readonly iconUrl: string | null;
  /** fiat price as a decimal string; null without a price feed */
  readonly exchangeRate: string | null;
}

export interface TokenTransferRecord {
  readonly transactionHash: Hash;
  readonly blockHash: Hash;
  readonly blockNumber: number;
  readonly transactionIndex: number;
  readonly logIndex: number;
  readonly timestamp: number;
  readonly from: Address;
  readonly to: Address;
  readonly tokenAddress: Address;
  readonly tokenType: TokenType;
  /** fungible amount (ERC-20, ERC-404 fungible leg), or the ERC-1155 single amount */
  readonly amount: bigint | null;
  /** token ids: one for ERC-721 / ERC-1155 single, several for an ERC-1155 batch; empty for ERC-20 */
  readonly tokenIds: readonly bigint[];
  /** ERC-1155 batch amounts, parallel to tokenIds; empty otherwise */
  readonly amounts: readonly bigint[];
  /** method id of the transaction input (copied at write time) */
  readonly methodId: Hex | null;
}

/** A token balance of a holder as of a block (history; the current balance is the latest). */
export interface TokenBalanceRecord {
  readonly holder: Address;
  readonly tokenAddress: Address;
  readonly tokenType: TokenType;
  /** null for fungible balances and for ERC-721 (a per-contract count), set for ERC-1155 / ERC-404 ids */
  readonly tokenId: bigint | null;
  readonly blockNumber: number;
  readonly value: bigint;
}

/** The native coin balance of an address as of a block (history). */
export interface CoinBalanceRecord {
  readonly address: Address;
  readonly blockNumber: number;
  readonly value: bigint;
}

export interface TokenInstanceRecord {
  readonly tokenAddress: Address;
  readonly tokenId: bigint;
  readonly tokenType: TokenType;
  /** parsed metadata JSON, or null */
  readonly metadata: Record<string, unknown> | null;
  /**
   * Current owner: for ERC-721 the holder of the id; for ERC-1155/404 the single holder when
   * exactly one address holds exactly 1 of the id; otherwise null. Adapters derive it on read.
   */
  readonly owner: Address | null;
  /** true for ERC-721; ERC-1155/404: exactly one holder holding exactly 1 */
  readonly isUnique: boolean;
}

/** What the sink stores for an instance (the owner is derived from transfers and balances). */
export interface TokenInstanceWrite {
  readonly tokenAddress: Address;
  readonly tokenId: bigint;
  readonly tokenType: TokenType;
  readonly metadata: Record<string, unknown> | null;
  /** block at which this metadata was written (for rollback) */
  readonly blockNumber: number;
}

export interface AddressRecord {
  readonly hash: Address;
  /** true when the address has contract code */
  readonly isContract: boolean;
  readonly name: string | null;
  /** transaction that created the contract, if known */
  readonly creationTransactionHash: Hash | null;
  readonly creatorAddress: Address | null;
}

/**
 * What a page's renderers need to know of an address beyond its record, in one lookup
 * (`getAddressViews`): the record when the store has one (the indexer writes one for each contract
 * it saw created), the type of the token at the address, and whether the indexer saw it as a
 * proxy (then lib/proxy/view.ts loads its history). A token or proxy created before the indexed
 * range, or an account delegating by EIP-7702, has facts without a record.
 */
export interface AddressView {
  readonly hash: Address;
  readonly record: AddressRecord | null;
  /** the type of the token at this address, null when none (an ERC-721 `transferFrom` is decoded as ERC-721) */
  readonly tokenType: TokenType | null;
  /** whether the indexer saw implementation changes of this address as a proxy */
  readonly proxied: boolean;
}

export interface AddressWrite extends AddressRecord {
  /** block at which this record became true (for rollback) */
  readonly blockNumber: number;
}

/**
 * The per-address counters the sink keeps as blocks are written and rolled back (Blockscout's
 * address counters). Rows counted: transactions of consensus blocks and pending ones; token
 * transfers of consensus blocks; every stored block (any consensus) for validations.
 */
export interface AddressCountersRecord {
  readonly address: Address;
  /** contract: transactions to it; otherwise: transactions from or to it (pending included) */
  readonly transactionsCount: bigint;
  /** token transfers from or to it */
  readonly tokenTransfersCount: bigint;
  /** contract: Σ gasUsed of incoming transactions, outgoing when that is 0; otherwise: Σ gasUsed of outgoing ones */
  readonly gasUsageCount: bigint;
  /** blocks it mined, consensus or not */
  readonly validationsCount: bigint;
}

/** An address with a positive current coin balance (the top-accounts list). */
export interface AccountRecord {
  readonly address: Address;
  /** its latest consensus coin balance record */
  readonly balance: bigint;
  /** the counter of AddressCountersRecord */
  readonly transactionsCount: bigint;
}

/** One balance change of a transaction (coin or token), as computed by the indexer. */
export interface StateChangeRecord {
  readonly transactionHash: Hash;
  readonly address: Address;
  readonly type: 'coin' | 'token';
  readonly tokenAddress: Address | null;
  /** set for ERC-1155 / ERC-404 entries (one per id) */
  readonly tokenId: bigint | null;
  readonly balanceBefore: bigint;
  readonly balanceAfter: bigint;
  readonly isMiner: boolean;
  /** output order within the transaction */
  readonly ordinal: number;
}

/**
 * A beacon-chain withdrawal (EIP-4895): a credit to `address` applied at the end of its block,
 * outside any transaction. `index` is the chain-wide withdrawal index (unique on a chain).
 */
export interface WithdrawalRecord {
  readonly index: number;
  readonly validatorIndex: number;
  readonly address: Address;
  /** in wei (the node reports gwei; the indexer multiplies by 10^9) */
  readonly amount: bigint;
  readonly blockNumber: number;
  readonly blockHash: Hash;
  /** block timestamp (copied from the block at write time) */
  readonly timestamp: number;
}

/**
 * A contract the indexer saw created (by a transaction or an internal create frame that did not
 * fail), with its code as of the end of the creation block.
 */
export interface ContractCodeRecord {
  readonly address: Address;
  readonly blockNumber: number;
  readonly blockHash: Hash;
  readonly transactionHash: Hash;
  readonly transactionIndex: number;
  /** block timestamp (unix seconds) */
  readonly timestamp: number;
  readonly creator: Address;
  /** runtime code: the create frame's output, else `eth_getCode` at the creation block ('0x' when none) */
  readonly deployedBytecode: Hex;
  /** init code: the creation transaction's input or the create frame's input; null when unknown */
  readonly creationBytecode: Hex | null;
}

/**
 * One frame of a transaction's call tree, exactly as the node's callTracer reported it (absent
 * fields are null), placed by its depth-first `index` (0 = the top call) and `traceAddress`
 * (child positions from the top call; [] for the top call).
 */
export interface TraceFrameRecord {
  readonly transactionHash: Hash;
  readonly blockNumber: number;
  readonly blockHash: Hash;
  readonly transactionIndex: number;
  readonly index: number;
  readonly traceAddress: readonly number[];
  /** as the tracer reports it (upper-case: CALL, DELEGATECALL, CREATE2, SELFDESTRUCT, ...) */
  readonly type: string;
  readonly from: Address;
  readonly to: Address | null;
  readonly value: bigint | null;
  readonly gas: bigint | null;
  readonly gasUsed: bigint | null;
  readonly input: Hex;
  readonly output: Hex | null;
  readonly error: string | null;
  readonly revertReason: string | null;
}

/** Everything one block brings; the unit the DataSink writes. */
/** Blockscout's `proxy_type` names for the proxy kinds the indexer recognizes. */
export type ProxyType =
  | 'eip1167'
  | 'minimal_proxy'
  | 'eip7702'
  | 'master_copy'
  | 'eip1967'
  | 'eip1822'
  | 'eip1967_beacon'
  | 'eip2535'
  | 'eip1967_oz'
  | 'basic_implementation';

/** One entry of an EIP-2535 `DiamondCut`: `action` 0 adds, 1 replaces, 2 removes the selectors. */
export interface FacetCut {
  readonly facet: Address;
  readonly action: number;
  /** `0x` + 8 lower-case hex each */
  readonly selectors: readonly Hex[];
}

/** A proxy's implementation as set by one transaction (lib/proxy/detect.ts). */
export interface ProxyRecord {
  readonly proxy: Address;
  readonly type: ProxyType;
  /** empty: the proxy points nowhere from this transaction on (slot cleared, delegation revoked), or a beacon */
  readonly implementations: readonly Address[];
  /** the beacon, for `eip1967_beacon` (its `implementation()` is a call's answer, not indexed data) */
  readonly beacon: Address | null;
  /** `eip2535`: the transaction's `DiamondCut`s, in log order (a diamond's facets fold every cut up to a point) */
  readonly cuts?: readonly FacetCut[];
  readonly blockNumber: number;
  readonly transactionHash: Hash;
  readonly transactionIndex: number;
}

export interface BlockBundle {
  readonly block: BlockRecord;
  readonly transactions: readonly TransactionRecord[];
  readonly internalTransactions: readonly InternalTransactionRecord[];
  readonly logs: readonly LogRecord[];
  readonly tokenTransfers: readonly TokenTransferRecord[];
  /** tokens first seen or updated in this block (upsert by address; holdersCount ignored, the sink keeps it) */
  readonly tokens: readonly TokenRecord[];
  readonly tokenBalances: readonly TokenBalanceRecord[];
  readonly coinBalances: readonly CoinBalanceRecord[];
  readonly tokenInstances: readonly TokenInstanceWrite[];
  readonly addresses: readonly AddressWrite[];
  readonly stateChanges: readonly StateChangeRecord[];
  /** beacon-chain withdrawals of the block; absent = none (pre-Shanghai blocks, other chains) */
  readonly withdrawals?: readonly WithdrawalRecord[];
  /** contracts created in this block (optional: absent = none) */
  readonly contractCodes?: readonly ContractCodeRecord[];
  /** callTracer frames of this block's transactions (optional: absent = the node gave none) */
  readonly traceFrames?: readonly TraceFrameRecord[];
  /** proxy implementations set in this block, in transaction order (optional: absent = none) */
  readonly proxies?: readonly ProxyRecord[];
  /** ERC-4337 user operations of this block (lib/userops/; optional: absent = none) */
  readonly userOperations?: readonly UserOperationRecord[];
}
