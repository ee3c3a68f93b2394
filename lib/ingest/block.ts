/**
 * One block's payload from a ChainSource → a BlockBundle, in two pure steps around the reads
 * only a node can answer:
 *
 *   planBlock(payload)              what must be read (code, token facts, balances, metadata)
 *   buildBundle(payload, plan, facts)   the records
 *
 * The indexer does the reads in between (lib/indexer/facts.ts).
 */
import type {
  Address,
  AddressWrite,
  BlockBundle,
  BlockRecord,
  CoinBalanceRecord,
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
import type { PrestateDiff, SourceBlock, SourceReceipt, TransactionTrace } from '../chain-source.ts';
import { blockAggregates, methodIdOf, transactionKinds, withTransferMethods } from './derive.ts';
import { coinBalancesFromDiffs, coinChanges, tokenBalanceKey, tokenStateChanges, touchedTokenKeys } from './state.ts';
import type { TokenKey } from './state.ts';
import { createdContracts, hasFrameError, internalTransactions, revertData, traceFrameRecords, valueParties } from './traces.ts';
import type { DecodedTransfer, TransferShape } from './transfers.ts';
import { decodeTransfers, ZERO_ADDRESS } from './transfers.ts';

export interface BlockPayload {
  readonly block: SourceBlock;
  /** in transaction order, one per transaction */
  readonly receipts: readonly SourceReceipt[];
  /** null when the node cannot trace */
  readonly traces: readonly TransactionTrace[] | null;
  /** null when the node has no prestateTracer diffMode */
  readonly prestate: readonly PrestateDiff[] | null;
}

export interface CreatedContract {
  readonly address: Address;
  readonly creator: Address;
  readonly transactionHash: Hash;
  readonly transactionIndex: number;
  /** init code: the creation transaction's input or the create frame's input */
  readonly init: Hex | null;
  /** runtime code from the create frame's output; null without a trace (read with eth_getCode) */
  readonly code: Hex | null;
}

export interface BlockPlan {
  readonly transfers: readonly DecodedTransfer[];
  readonly createdContracts: readonly CreatedContract[];
  /** tokens touched by transfers, with the event shapes seen (in first-seen order) */
  readonly tokenShapes: ReadonlyMap<Address, ReadonlySet<TransferShape>>;
  /** created contracts that emitted no transfer yet: might be tokens (ERC-165 / ERC-20 probe) */
  readonly tokenCandidates: readonly Address[];
  /** holder balances to read at the end of the block */
  readonly balanceKeys: readonly (TokenKey & { readonly shape: TransferShape })[];
  /** NFT ids minted in this block (token instances to create), keyed by token */
  readonly mints: readonly { readonly token: Address; readonly id: bigint; readonly shape: TransferShape }[];
  /** transaction targets whose code decides `contract_call` */
  readonly callTargets: readonly Address[];
  /** accounts whose coin balance the block may move (read when there are no prestate diffs) */
  readonly coinParties: readonly Address[];
  /**
   * recipients of the block's withdrawals: credited after the last transaction, outside any
   * prestate diff, so their end-of-block balances are always read from the node
   */
  readonly withdrawalRecipients: readonly Address[];
}

/** What the node answered for a plan. */
export interface TokenFacts {
  readonly type: TokenType;
  readonly name: string | null;
  readonly symbol: string | null;
  readonly decimals: bigint | null;
  readonly totalSupply: bigint | null;
}

export interface BlockFacts {
  /** addresses known to hold code at this block (call targets and created contracts) */
  readonly contracts: ReadonlySet<Address>;
  /** token facts for every token in the plan (tokens absent here are not tokens) */
  readonly tokens: ReadonlyMap<Address, TokenFacts>;
  /** end-of-block balances by tokenBalanceKey(holder, token, id); null = the read failed */
  readonly balances: ReadonlyMap<string, bigint | null>;
  /** instance metadata by `${token}|${id}` */
  readonly metadata: ReadonlyMap<string, Record<string, unknown> | null>;
  /** end-of-block coin balances: every coin party without prestate diffs, else the withdrawal recipients */
  readonly coinBalances: ReadonlyMap<Address, bigint>;
  /** `eth_getCode` at the block of created contracts whose runtime code no trace gave */
  readonly createdCodes?: ReadonlyMap<Address, Hex>;
}

/** wei per gwei (EIP-4895 withdrawal amounts are gwei) */
const GWEI = 1_000_000_000n;

export const instanceKeyOf = (token: Address, id: bigint): string => `${token}|${id.toString()}`;

export function planBlock(payload: BlockPayload): BlockPlan {
  const { block, receipts, traces } = payload;
  const logs = receipts.flatMap((r) => r.logs);
  const transfers = decodeTransfers(logs);

  const created: CreatedContract[] = [];
  const createdAt = new Map<Address, number>();
  const addCreated = (c: CreatedContract): void => {
    const at = createdAt.get(c.address);
    if (at === undefined) {
      createdAt.set(c.address, created.length);
      created.push(c);
      return;
    }
    // seen again (the top create frame of a creation transaction): it brings the runtime code
    const prev = created[at];
    if (prev !== undefined && prev.code === null && c.code !== null) created[at] = { ...prev, code: c.code, init: prev.init ?? c.init };
  };
  const traceByTx = new Map((traces ?? []).map((t) => [t.transactionHash, t.frame]));
  const receiptByTx = new Map(receipts.map((r) => [r.transactionHash, r]));
  for (const tx of block.transactions) {
    const receipt = receiptByTx.get(tx.hash);
    if (tx.to === null && receipt?.contractAddress && receipt.status !== 'reverted') {
      addCreated({
        address: receipt.contractAddress,
        creator: tx.from,
        transactionHash: tx.hash,
        transactionIndex: tx.index,
        init: tx.input,
        code: null,
      });
    }
    const frame = traceByTx.get(tx.hash);
    if (frame !== undefined) {
      for (const c of createdContracts(frame)) addCreated({ ...c, transactionHash: tx.hash, transactionIndex: tx.index });
    }
  }

  const tokenShapes = new Map<Address, Set<TransferShape>>();
  for (const t of transfers) {
    const s = tokenShapes.get(t.token);
    if (s === undefined) tokenShapes.set(t.token, new Set([t.shape]));
    else s.add(t.shape);
  }
  const tokenCandidates = created.map((c) => c.address).filter((a) => !tokenShapes.has(a));

  const balanceKeys = new Map<string, TokenKey & { shape: TransferShape }>();
  for (const t of transfers) {
    for (const k of touchedTokenKeys([t])) balanceKeys.set(tokenBalanceKey(k.holder, k.token, k.id), { ...k, shape: t.shape });
  }
  const mints = new Map<string, { token: Address; id: bigint; shape: TransferShape }>();
  for (const t of transfers) {
    if (t.shape === 'erc20' || t.from !== ZERO_ADDRESS || t.to === ZERO_ADDRESS) continue;
    for (const id of t.tokenIds) mints.set(instanceKeyOf(t.token, id), { token: t.token, id, shape: t.shape });
  }

  const callTargets = [...new Set(block.transactions.flatMap((tx) => (tx.to === null ? [] : [tx.to])))];
  const coinParties = new Set<Address>([block.miner]);
  for (const tx of block.transactions) {
    coinParties.add(tx.from);
    if (tx.to !== null) coinParties.add(tx.to);
    const frame = traceByTx.get(tx.hash);
    if (frame !== undefined) for (const a of valueParties(frame)) coinParties.add(a);
  }
  for (const c of created) coinParties.add(c.address);
  const withdrawalRecipients = [...new Set((block.withdrawals ?? []).map((w) => w.address))].sort();
  for (const a of withdrawalRecipients) coinParties.add(a);

  return {
    transfers,
    createdContracts: created,
    tokenShapes,
    tokenCandidates,
    balanceKeys: [...balanceKeys.values()],
    mints: [...mints.values()],
    callTargets,
    coinParties: [...coinParties].sort(),
    withdrawalRecipients,
  };
}

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

export function buildBundle(payload: BlockPayload, plan: BlockPlan, facts: BlockFacts): BlockBundle {
  const { block: src, receipts, traces, prestate } = payload;
  const receiptByTx = new Map(receipts.map((r) => [r.transactionHash, r]));
  const traceByTx = new Map((traces ?? []).map((t) => [t.transactionHash, t.frame]));
  const diffByTx = new Map((prestate ?? []).map((d) => [d.transactionHash, d]));

  // ---- transfers (typed) ----
  const typed = plan.transfers.flatMap((t) => {
    const info = facts.tokens.get(t.token);
    return info !== undefined && fits(t.shape, info.type) ? [{ ...t, tokenType: info.type }] : [];
  });
  const transferTxs = new Set(typed.map((t) => t.transactionHash));

  // ---- transactions, traces, logs ----
  const transactions: TransactionRecord[] = [];
  const internal: InternalTransactionRecord[] = [];
  const traceFrames: TraceFrameRecord[] = [];
  const logs: LogRecord[] = [];
  for (const tx of src.transactions) {
    const receipt = receiptByTx.get(tx.hash);
    if (receipt === undefined) throw new Error(`block ${src.number}: no receipt for transaction ${tx.hash}`);
    const frame = traceByTx.get(tx.hash);
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

  const tokenTransfers: TokenTransferRecord[] = withTransferMethods(
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

  // ---- tokens, balances, instances ----
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

  // ---- addresses ----
  const addresses: AddressWrite[] = plan.createdContracts.map((c) => ({
    hash: c.address,
    isContract: true,
    name: null,
    creationTransactionHash: c.transactionHash,
    creatorAddress: c.creator,
    blockNumber: src.number,
  }));

  // ---- coin balances and state changes ----
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
    const diff = diffByTx.get(tx.hash);
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

  const aggregates = blockAggregates({ baseFeePerGas: src.baseFeePerGas }, transactions, internal);
  const block: BlockRecord = {
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

  // EIP-4895 amounts are gwei; records hold wei
  const withdrawals: WithdrawalRecord[] = (src.withdrawals ?? []).map((w) => ({
    index: w.index,
    validatorIndex: w.validatorIndex,
    address: w.address,
    amount: w.amountGwei * GWEI,
    blockNumber: src.number,
    blockHash: src.hash,
    timestamp: src.timestamp,
  }));

  return {
    block,
    transactions,
    internalTransactions: internal,
    logs,
    tokenTransfers,
    tokens,
    tokenBalances,
    coinBalances,
    tokenInstances,
    addresses,
    stateChanges,
    ...(withdrawals.length === 0 ? {} : { withdrawals }),
    contractCodes: plan.createdContracts.map((c) => ({
      address: c.address,
      blockNumber: src.number,
      blockHash: src.hash,
      transactionHash: c.transactionHash,
      transactionIndex: c.transactionIndex,
      timestamp: src.timestamp,
      creator: c.creator,
      deployedBytecode: lowerHex(c.code ?? facts.createdCodes?.get(c.address) ?? '0x'),
      creationBytecode: c.init === null ? null : lowerHex(c.init),
    })),
    traceFrames,
  };
}

const lowerHex = (h: Hex): Hex => h.toLowerCase() as Hex;

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
