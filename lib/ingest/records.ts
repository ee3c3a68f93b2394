/**
 * buildBundle's steps: a block's payload, plan and facts → the records of a BlockBundle, one
 * named step per record family (transfers typed by their token, transactions with their traces
 * and logs, token transfers, tokens with balances and instances, addresses, coin balances with
 * state changes, the block, withdrawals, contract code).
 */
import type {
  Address,
  AddressWrite,
  BlockBundle,
  BlockRecord,
  CoinBalanceRecord,
  ContractCodeRecord,
  Hash,
  Hex,
  InternalTransactionRecord,
  LogRecord,
  StateChangeRecord,
  TokenBalanceRecord,
  TokenInstanceWrite,
  TokenRecord,
  TokenTransferRecord,
  TokenType,
  TraceFrameRecord,
  TransactionRecord,
  WithdrawalRecord,
} from '../domain/records.ts';
import type { CallFrame, PrestateDiff, SourceBlock, SourceReceipt } from '../chain-source.ts';
import type { BlockFacts, BlockPayload, BlockPlan } from './block.ts';
import { blockAggregates, methodIdOf, transactionKinds, withTransferMethods } from './derive.ts';
import { detectProxies } from '../proxy/detect.ts';
import { DEFAULT_ENTRY_POINTS } from '../userops/entryPoints.ts';
import type { EntryPoints } from '../userops/entryPoints.ts';
import { userOperationsOf } from '../userops/extract.ts';
import { coinBalancesFromDiffs, coinChanges, tokenBalanceKey, tokenStateChanges } from './state.ts';
import { hasFrameError, internalTransactions, revertData, traceFrameRecords } from './traces.ts';
import type { DecodedTransfer } from './transfers.ts';
import type { TransferShape } from './transfers.ts';
import { EMPTY_HEX } from '../domain/hex.ts';

/** wei per gwei (EIP-4895 withdrawal amounts are gwei) */
const GWEI = 1_000_000_000n;

export const instanceKeyOf = (token: Address, id: bigint): string => `${token}|${id.toString()}`;

/** Does a transfer's event shape fit the token's type? (A mismatch is not a transfer of it.) */
function fits(shape: TransferShape, type: TokenType): boolean {
  switch (type) {
    case 'ERC-20':
      return shape === 'erc20';
    case 'ERC-721':
      return shape === 'erc721';
    case 'ERC-1155':
      return shape === 'erc1155';
    default:
      return false;
  }
}

/** A transfer whose token is known and whose event shape fits the token's type. */
export type TypedTransfer = DecodedTransfer & { readonly tokenType: TokenType };

/** The payload's receipts, traces and diffs by transaction hash. */
interface ByTransaction {
  readonly receipts: ReadonlyMap<Hash, SourceReceipt>;
  readonly traces: ReadonlyMap<Hash, CallFrame>;
  readonly diffs: ReadonlyMap<Hash, PrestateDiff>;
}

function byTransaction(payload: BlockPayload): ByTransaction {
  return {
    receipts: new Map(payload.receipts.map((r) => [r.transactionHash, r])),
    traces: new Map((payload.traces ?? []).map((t) => [t.transactionHash, t.frame])),
    diffs: new Map((payload.prestate ?? []).map((d) => [d.transactionHash, d])),
  };
}

export function typedTransfers(plan: BlockPlan, facts: BlockFacts): TypedTransfer[] {
  return plan.transfers.flatMap((t) => {
    const info = facts.tokens.get(t.token);
    return info !== undefined && fits(t.shape, info.type) ? [{ ...t, tokenType: info.type }] : [];
  });
}

interface TransactionSide {
  readonly transactions: TransactionRecord[];
  readonly internal: InternalTransactionRecord[];
  readonly traceFrames: TraceFrameRecord[];
  readonly logs: LogRecord[];
}

/** Transactions with their kinds, internal transactions and trace frames, and logs. */
export function transactionRecords(src: SourceBlock, by: ByTransaction, facts: BlockFacts, typed: readonly TypedTransfer[]): TransactionSide {
  const transferTxs = new Set(typed.map((t) => t.transactionHash));
  const transactions: TransactionRecord[] = [];
  const internal: InternalTransactionRecord[] = [];
  const traceFrames: TraceFrameRecord[] = [];
  const logs: LogRecord[] = [];
  for (const tx of src.transactions) {
    const receipt = by.receipts.get(tx.hash);
    if (receipt === undefined) throw new Error(`block ${src.number}: no receipt for transaction ${tx.hash}`);
    const frame = by.traces.get(tx.hash);
    const failed = receipt.status === 'reverted';
    const createdContract = tx.to === null && !failed ? receipt.contractAddress : null;
    const partial = {
      hash: tx.hash,
      blockNumber: src.number,
      blockHash: src.hash,
      index: tx.index,
      timestamp: src.timestamp,
      baseFeePerGas: src.baseFeePerGas,
      from: tx.from,
      to: tx.to,
      createdContract,
      value: tx.value,
      gas: tx.gas,
      gasPrice: receipt.effectiveGasPrice ?? tx.gasPrice,
      maxFeePerGas: tx.maxFeePerGas,
      maxPriorityFeePerGas: tx.maxPriorityFeePerGas,
      gasUsed: receipt.gasUsed,
      status: receipt.status === null ? null : failed ? ('error' as const) : ('ok' as const),
      error: failed ? (frame?.error ?? 'Reverted') : null,
      revertReason: failed && frame !== undefined ? revertData(frame) : null,
      nonce: tx.nonce,
      type: tx.type,
      input: tx.input,
      methodId: methodIdOf(tx.input),
      // deterministic, so that re-indexing a block writes the same record
      insertedAt: src.timestamp * 1000 + tx.index,
      hasErrorInInternalTransactions: frame === undefined ? null : hasFrameError(frame),
      ...(tx.signature !== undefined ? { signature: tx.signature } : {}),
    };
    transactions.push({
      ...partial,
      kinds: transactionKinds(partial, {
        isContract: (a) => facts.contracts.has(a),
        isToken: (a) => facts.tokens.has(a),
        hasTokenTransfers: transferTxs.has(tx.hash),
      }),
    });
    if (frame !== undefined) {
      internal.push(
        ...internalTransactions(frame, {
          transactionHash: tx.hash,
          transactionIndex: tx.index,
          blockNumber: src.number,
          blockHash: src.hash,
          timestamp: src.timestamp,
          transactionGas: tx.gas,
        }),
      );
      traceFrames.push(...traceFrameRecords(frame, { transactionHash: tx.hash, transactionIndex: tx.index, blockNumber: src.number, blockHash: src.hash }));
    }
    for (const log of receipt.logs) {
      logs.push({
        transactionHash: tx.hash,
        blockHash: src.hash,
        blockNumber: src.number,
        transactionIndex: tx.index,
        index: log.logIndex,
        timestamp: src.timestamp,
        address: log.address,
        topics: log.topics,
        data: log.data,
      });
    }
  }
  return { transactions, internal, traceFrames, logs };
}

export function tokenTransferRecords(src: SourceBlock, typed: readonly TypedTransfer[], transactions: readonly TransactionRecord[]): TokenTransferRecord[] {
  return withTransferMethods(
      typed.map((t) => ({
        transactionHash: t.transactionHash,
        blockHash: src.hash,
        blockNumber: src.number,
        transactionIndex: t.transactionIndex,
        logIndex: t.logIndex,
        timestamp: src.timestamp,
        from: t.from,
        to: t.to,
        tokenAddress: t.token,
        tokenType: t.tokenType,
        amount: t.amount,
        tokenIds: t.tokenIds,
        amounts: t.amounts,
        methodId: null,
      })),
      transactions,
  );
}

/** Tokens with their facts, holder balances read at the block (a reverted read is no value), minted instances. */
export function tokenRecords(
  src: SourceBlock,
  plan: BlockPlan,
  facts: BlockFacts,
): { tokens: TokenRecord[]; tokenBalances: TokenBalanceRecord[]; tokenInstances: TokenInstanceWrite[] } {
  const tokens: TokenRecord[] = [...facts.tokens.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([address, f]) => ({
      address,
      type: f.type,
      name: f.name,
      symbol: f.symbol,
      decimals: f.decimals,
      totalSupply: f.totalSupply,
      holdersCount: 0n,
      iconUrl: null,
      exchangeRate: null,
    }));
  const tokenBalances: TokenBalanceRecord[] = [];
  for (const k of plan.balanceKeys) {
    const info = facts.tokens.get(k.token);
    if (info === undefined || !fits(k.shape, info.type)) continue;
    const value = facts.balances.get(tokenBalanceKey(k.holder, k.token, k.id));
    if (value === undefined || value === null) continue;
    tokenBalances.push({ holder: k.holder, tokenAddress: k.token, tokenType: info.type, tokenId: k.id, blockNumber: src.number, value });
  }
  tokenBalances.sort((a, b) => cmpStr(tokenBalanceKey(a.holder, a.tokenAddress, a.tokenId), tokenBalanceKey(b.holder, b.tokenAddress, b.tokenId)));
  const tokenInstances: TokenInstanceWrite[] = [];
  for (const m of plan.mints) {
    const info = facts.tokens.get(m.token);
    if (info === undefined || !fits(m.shape, info.type)) continue;
    tokenInstances.push({
      tokenAddress: m.token,
      tokenId: m.id,
      tokenType: info.type,
      metadata: facts.metadata.get(instanceKeyOf(m.token, m.id)) ?? null,
      blockNumber: src.number,
    });
  }
  return { tokens, tokenBalances, tokenInstances };
}

/** The contracts the block created. */
export function addressRecords(src: SourceBlock, plan: BlockPlan): AddressWrite[] {
  return plan.createdContracts.map((c) => ({
    hash: c.address,
    isContract: true,
    name: null,
    creationTransactionHash: c.transactionHash,
    creatorAddress: c.creator,
    blockNumber: src.number,
  }));
}

/** End-of-block coin balances, and each transaction's coin and token state changes. */
export function stateRecords(
  payload: BlockPayload,
  by: ByTransaction,
  plan: BlockPlan,
  facts: BlockFacts,
  typed: readonly TypedTransfer[],
): { coinBalances: CoinBalanceRecord[]; stateChanges: StateChangeRecord[] } {
  const { block: src, prestate } = payload;
  let coinBalances: CoinBalanceRecord[];
  const stateChanges: StateChangeRecord[] = [];
  const tokenChanges = tokenStateChanges({ transfers: typed, endBalances: facts.balances, miner: src.miner });
  if (prestate !== null) {
    // the diffs end at the last transaction; withdrawal recipients are credited after it
    const credited = new Set(plan.withdrawalRecipients);
    coinBalances = [
      ...coinBalancesFromDiffs(prestate, src.number).filter((c) => !credited.has(c.address)),
      ...plan.withdrawalRecipients.map((address) => ({ address, blockNumber: src.number, value: facts.coinBalances.get(address) ?? 0n })),
    ].sort((a, b) => cmpStr(a.address, b.address));
  } else {
    coinBalances = [...facts.coinBalances.entries()]
      .sort(([a], [b]) => cmpStr(a, b))
      .map(([address, value]) => ({ address, blockNumber: src.number, value }));
  }
  for (const tx of src.transactions) {
    let ordinal = 0;
    const diff = by.diffs.get(tx.hash);
    if (diff !== undefined) {
      for (const c of coinChanges(diff)) {
        stateChanges.push({
          transactionHash: tx.hash,
          address: c.address,
          type: 'coin',
          tokenAddress: null,
          tokenId: null,
          balanceBefore: c.before,
          balanceAfter: c.after,
          isMiner: c.address === src.miner,
          ordinal: ordinal++,
        });
      }
    }
    for (const e of tokenChanges.get(tx.hash) ?? []) stateChanges.push({ ...e, ordinal: ordinal++ });
  }
  return { coinBalances, stateChanges };
}

/** The block record with its aggregates over the transactions. */
export function blockRecord(src: SourceBlock, transactions: readonly TransactionRecord[], internal: readonly InternalTransactionRecord[]): BlockRecord {
  const aggregates = blockAggregates({ baseFeePerGas: src.baseFeePerGas }, transactions, internal);
  return {
    number: src.number,
    hash: src.hash,
    parentHash: src.parentHash,
    timestamp: src.timestamp,
    miner: src.miner,
    size: src.size,
    gasLimit: src.gasLimit,
    gasUsed: src.gasUsed,
    baseFeePerGas: src.baseFeePerGas,
    difficulty: src.difficulty,
    totalDifficulty: src.totalDifficulty,
    nonce: src.nonce,
    extraData: src.extraData,
    stateRoot: src.stateRoot,
    consensus: true,
    unclesHashes: src.uncles,
    ...aggregates,
  };
}

/** EIP-4895 amounts are gwei; records hold wei. */
export function withdrawalRecords(src: SourceBlock): WithdrawalRecord[] {
  return (src.withdrawals ?? []).map((w) => ({
    index: w.index,
    validatorIndex: w.validatorIndex,
    address: w.address,
    amount: w.amountGwei * GWEI,
    blockNumber: src.number,
    blockHash: src.hash,
    timestamp: src.timestamp,
  }));
}

/** Created contracts' code: from the trace, else read at the block. */
export function contractCodeRecords(src: SourceBlock, plan: BlockPlan, facts: BlockFacts): ContractCodeRecord[] {
  return plan.createdContracts.map((c) => ({
    address: c.address,
    blockNumber: src.number,
    blockHash: src.hash,
    transactionHash: c.transactionHash,
    transactionIndex: c.transactionIndex,
    timestamp: src.timestamp,
    creator: c.creator,
    deployedBytecode: lowerHex(c.code ?? facts.createdCodes?.get(c.address) ?? EMPTY_HEX),
    creationBytecode: c.init === null ? null : lowerHex(c.init),
  }));
}

/** What buildBundle is told beyond the block: the EntryPoints of its user operations (default the canonical three). */
export interface BundleOptions {
  readonly entryPoints?: EntryPoints;
}

/** One block's records, step by step. */
export function buildBundle(payload: BlockPayload, plan: BlockPlan, facts: BlockFacts, options: BundleOptions = {}): BlockBundle {
  const src = payload.block;
  const by = byTransaction(payload);
  const typed = typedTransfers(plan, facts);
  const { transactions, internal, traceFrames, logs } = transactionRecords(src, by, facts, typed);
  const { tokens, tokenBalances, tokenInstances } = tokenRecords(src, plan, facts);
  const { coinBalances, stateChanges } = stateRecords(payload, by, plan, facts, typed);
  const withdrawals = withdrawalRecords(src);
  const contractCodes = contractCodeRecords(src, plan, facts);
  const proxies = detectProxies({
    blockNumber: src.number,
    transactionHashes: src.transactions.map((t) => t.hash),
    diffs: payload.prestate ?? facts.storageDiffs ?? null,
    contractCodes,
    logs,
  });
  const userOperations = userOperationsOf(payload, options.entryPoints ?? DEFAULT_ENTRY_POINTS);
  return {
    block: blockRecord(src, transactions, internal),
    transactions,
    internalTransactions: internal,
    logs,
    tokenTransfers: tokenTransferRecords(src, typed, transactions),
    tokens,
    tokenBalances,
    coinBalances,
    tokenInstances,
    addresses: addressRecords(src, plan),
    stateChanges,
    ...(withdrawals.length === 0 ? {} : { withdrawals }),
    contractCodes,
    traceFrames,
    ...(proxies.length === 0 ? {} : { proxies }),
    ...(userOperations.length === 0 ? {} : { userOperations }),
  };
}

const lowerHex = (h: Hex): Hex => h.toLowerCase() as Hex;

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
