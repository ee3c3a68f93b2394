/**
 * The ChainSource port: what the indexer asks of an EVM node. Results are raw-ish and typed
 * (lower-case hex strings, bigint for unbounded integers, number for heights and positions);
 * turning them into records is lib/ingest's pure work. adapters/rpc implements it over JSON-RPC.
 */
import type { Address, BlockRecord, Hash, Hex, TransactionSignature } from '../domain/records.ts';
import { hex } from '../domain/hex.ts';

export interface SourceTransaction {
  readonly hash: Hash;
  readonly blockNumber: number;
  readonly blockHash: Hash;
  readonly index: number;
  readonly from: Address;
  /** null for contract creation */
  readonly to: Address | null;
  readonly value: bigint;
  readonly gas: bigint;
  /** as the node reports it (legacy price, or the effective price some nodes put here) */
  readonly gasPrice: bigint | null;
  readonly maxFeePerGas: bigint | null;
  readonly maxPriorityFeePerGas: bigint | null;
  readonly nonce: number;
  /** EIP-2718 type; null when the node does not say */
  readonly type: number | null;
  readonly input: Hex;
  /** absent when the node gives no r/s/v */
  readonly signature?: TransactionSignature;
}

/** A beacon-chain withdrawal (EIP-4895) as the node reports it: the amount in gwei. */
export interface SourceWithdrawal {
  readonly index: number;
  readonly validatorIndex: number;
  readonly address: Address;
  /** gwei, as in the block body */
  readonly amountGwei: bigint;
}

/** A block as the node gives it: the header fields of BlockRecord, its uncles and transactions. */
export interface SourceBlock
  extends Pick<
    BlockRecord,
    | 'number'
    | 'hash'
    | 'parentHash'
    | 'timestamp'
    | 'miner'
    | 'size'
    | 'gasLimit'
    | 'gasUsed'
    | 'baseFeePerGas'
    | 'difficulty'
    | 'totalDifficulty'
    | 'nonce'
    | 'extraData'
    | 'stateRoot'
  > {
  readonly uncles: readonly Hash[];
  readonly transactions: readonly SourceTransaction[];
  /** the block body's `withdrawals`; absent before Shanghai and on chains without them */
  readonly withdrawals?: readonly SourceWithdrawal[];
}

export interface SourceLog {
  readonly address: Address;
  readonly topics: readonly Hex[];
  readonly data: Hex;
  /** index within the block */
  readonly logIndex: number;
  readonly transactionHash: Hash;
  readonly transactionIndex: number;
}

export interface SourceReceipt {
  readonly transactionHash: Hash;
  readonly transactionIndex: number;
  /** null on pre-Byzantium receipts (state root instead of status) */
  readonly status: 'success' | 'reverted' | null;
  readonly gasUsed: bigint;
  readonly effectiveGasPrice: bigint | null;
  readonly contractAddress: Address | null;
  readonly logs: readonly SourceLog[];
}

/** One frame of a callTracer tree. */
export interface CallFrame {
  /** upper-case as the tracer reports it: CALL, STATICCALL, DELEGATECALL, CALLCODE, CREATE, CREATE2, SELFDESTRUCT */
  readonly type: string;
  readonly from: Address;
  /** the callee, or the created contract for CREATE/CREATE2 */
  readonly to: Address | null;
  readonly value: bigint | null;
  readonly gas: bigint | null;
  readonly gasUsed: bigint | null;
  readonly input: Hex;
  readonly output: Hex | null;
  readonly error: string | null;
  /** decoded revert reason when the tracer gives one */
  readonly revertReason: string | null;
  readonly calls: readonly CallFrame[];
}

export interface TransactionTrace {
  readonly transactionHash: Hash;
  readonly frame: CallFrame;
}

/** An account's fields as prestateTracer reports them; absent fields are absent. */
export interface AccountState {
  readonly balance?: bigint;
  readonly nonce?: number;
  readonly code?: Hex;
  /** storage slots the tracer reports (slot → 32-byte value); absent = none reported */
  readonly storage?: ReadonlyMap<Hash, Hash>;
}

/** prestateTracer diffMode for one transaction: touched accounts before, changed fields after. */
export interface PrestateDiff {
  readonly transactionHash: Hash;
  readonly pre: ReadonlyMap<Address, AccountState>;
  readonly post: ReadonlyMap<Address, AccountState>;
}

/**
 * How a node's call frames and state diffs are read — the rungs of the tracing ladder, best first:
 * - `block`: `debug_traceBlockByNumber` with callTracer and prestateTracer diffMode (geth, anvil, Reth);
 * - `transaction`: `debug_traceTransaction` with the same two tracers, one call per transaction
 *   (nodes without the block method: Hardhat 3's EDR, many hosted providers);
 * - `parity`: `trace_block` for frames and `trace_replayBlockTransactions` with `stateDiff`
 *   (Erigon, Nethermind, Reth, OpenEthereum);
 * - `structlog`: the default opcode tracer of `debug_traceTransaction`, from which the frames are
 *   rebuilt; no state diffs (Hardhat 2);
 * - `none`: the node traces nothing.
 */
export type TraceMode = 'block' | 'transaction' | 'parity' | 'structlog' | 'none';

export const TRACE_MODES: readonly TraceMode[] = ['block', 'transaction', 'parity', 'structlog', 'none'];

export interface ChainCapabilities {
  /** call frames of every transaction (on the rung `traceMode` names) */
  readonly traces: boolean;
  /** prestateTracer-diffMode-like state diffs of every transaction (block, transaction or parity rung) */
  readonly prestate: boolean;
  /** eth_getBlockReceipts (else one eth_getTransactionReceipt per transaction) */
  readonly blockReceipts: boolean;
  /** the rung frames and diffs are read on; absent: `block` when there are traces, else `none` */
  readonly traceMode?: TraceMode;
}

/**
 * eth_call reads of token contracts. Each result is null when the call is answered with no value
 * (it reverts, or decodes to nothing): a real answer. A read that could not be answered (timeout,
 * overloaded node, ...) is never null: readTokens throws a SourceUnavailableError instead.
 */
export type TokenRead =
  | { readonly kind: 'supportsInterface'; readonly token: Address; readonly interfaceId: Hex }
  | { readonly kind: 'name' | 'symbol'; readonly token: Address }
  | { readonly kind: 'decimals' | 'totalSupply'; readonly token: Address }
  | { readonly kind: 'balanceOf'; readonly token: Address; readonly holder: Address }
  | { readonly kind: 'balanceOf1155'; readonly token: Address; readonly holder: Address; readonly id: bigint }
  | { readonly kind: 'ownerOf'; readonly token: Address; readonly id: bigint }
  | { readonly kind: 'tokenURI' | 'uri'; readonly token: Address; readonly id: bigint };

export type TokenReadResult = bigint | string | boolean | null;

/**
 * The node gave no answer now, after the source's own retries: `unavailable` (network, rate
 * limit, overload, a timeout) or `not-yet` (a block, receipt or state the node announced but one
 * of its backends does not have yet). Nothing is wrong with the data: ask again later. The
 * indexer holds the block back (never stores a guess) and retries.
 */
export class SourceUnavailableError extends Error {
  override readonly name: string = 'SourceUnavailableError';
  constructor(
    message: string,
    readonly reason: 'unavailable' | 'not-yet',
    options?: { readonly cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * How a node shows its pending pool, best first (probed once by the source):
 * - `txpool_content`: the whole pool at once (its executable `pending` part);
 * - `pending-filter`: `eth_newPendingTransactionFilter` + `eth_getFilterChanges` for new hashes,
 *   each read with `eth_getTransactionByHash` (and asked again while held, to see it leave);
 *   transactions already in the pool when the filter was made are not seen;
 * - `pending-block`: the transactions of `eth_getBlockByNumber("pending", true)` (only those the
 *   node would put in its next block; held, like the filter's, until asked by hash they are gone
 *   or in a block);
 * - `none`: the node gives no pool.
 */
export type PendingPoolMethod = 'txpool_content' | 'pending-filter' | 'pending-block' | 'none';

/** A transaction in the node's pool: a SourceTransaction without its place in a block. */
export type SourcePendingTransaction = Omit<SourceTransaction, 'blockNumber' | 'blockHash' | 'index'>;

/** One read of the pool. */
export interface PendingPoolRead {
  readonly method: PendingPoolMethod;
  /** the pool's transactions (at most the limit asked), by sender and nonce */
  readonly transactions: readonly SourcePendingTransaction[];
  /** the pool held more than the limit: a transaction left out may still be in it */
  readonly truncated: boolean;
}

/** The header fields the indexer checks a block's place in the chain by. */
export interface SourceHeader {
  readonly number: number;
  readonly hash: Hash;
  readonly parentHash: Hash;
}

export interface ChainSource {
  chainId(): Promise<number>;
  /** a block's header by its hash (any fork the node knows), null when it has none; optional */
  headerByHash?(hash: Hash): Promise<SourceHeader | null>;
  /** hash of the block at a height, null when the node has no block there */
  blockHash(number: number): Promise<Hash | null>;
  headNumber(): Promise<number>;
  capabilities(): Promise<ChainCapabilities>;
  /** the block with full transactions, null when the node has none at that height */
  getBlock(number: number): Promise<SourceBlock | null>;
  /** the receipts of a block's transactions, in transaction order */
  getReceipts(block: SourceBlock): Promise<readonly SourceReceipt[]>;
  /** callTracer-shaped frames of every transaction of the block (on the capabilities' rung) */
  traceCalls(block: SourceBlock): Promise<readonly TransactionTrace[]>;
  /** prestateTracer-diffMode-shaped diffs of every transaction of the block (on the capabilities' rung) */
  tracePrestate(block: SourceBlock): Promise<readonly PrestateDiff[]>;
  /** token reads at a block (as of the end of that block); results parallel to reads */
  readTokens(reads: readonly TokenRead[], blockNumber: number): Promise<readonly TokenReadResult[]>;
  getCode(address: Address, blockNumber: number): Promise<Hex>;
  getBalance(address: Address, blockNumber: number): Promise<bigint>;
  /** Optional: a storage slot's 32-byte value at the end of a block (proxy slots where no diff shows writes) */
  getStorageAt?(address: Address, slot: Hash, blockNumber: number): Promise<Hash>;
  /** NFT metadata at a tokenURI/uri; null on any failure (never throws) */
  fetchMetadata(uri: string): Promise<Record<string, unknown> | null>;
  /**
   * Optional: how this node shows its pending pool (probed on the first call, then remembered;
   * a probe the node could not answer is asked again next time).
   */
  pendingPoolMethod?(): Promise<PendingPoolMethod>;
  /**
   * Optional: the node's pending pool now, at most `limit` transactions (method `none`: empty).
   * `known`: hashes the caller holds as pending (the store's), which a source that sees the pool
   * only in part (a filter, the pending block) asks after by hash, so that one still in the pool
   * is read as such and one gone is not.
   */
  readPendingPool?(limit: number, known?: readonly Hash[]): Promise<PendingPoolRead>;
}

/** The well-known ERC-165 interface ids. */
export const INTERFACE_IDS = {
  erc165: hex('0x01ffc9a7'),
  erc721: hex('0x80ac58cd'),
  erc1155: hex('0xd9b67a26'),
} as const satisfies Record<string, Hex>;
