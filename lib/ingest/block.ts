/**
 * One block's payload from a ChainSource → a BlockBundle, in two pure steps around the reads
 * only a node can answer:
 *
 *   planBlock(payload)              what must be read (code, token facts, balances, metadata)
 *   buildBundle(payload, plan, facts)   the records (records.ts, one step per record family)
 *
 * The indexer does the reads in between (lib/indexer/facts.ts).
 */
import type { Address, Hash, Hex, TokenType } from '../domain/records.ts';
import type { PrestateDiff, SourceBlock, SourceReceipt, TransactionTrace } from '../chain-source.ts';
import { tokenBalanceKey, touchedTokenKeys } from './state.ts';
import type { TokenKey } from './state.ts';
import { createdContracts, valueParties } from './traces.ts';
import type { DecodedTransfer, TransferShape } from './transfers.ts';
import { decodeTransfers } from './transfers.ts';
import { ZERO_ADDRESS } from '../domain/hex.ts';
import { instanceKeyOf } from './records.ts';

export { buildBundle, instanceKeyOf, tokenRecords, transactionRecords, stateRecords, typedTransfers } from './records.ts';

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
  /** end-of-block balances by tokenBalanceKey(holder, token, id); null = no value (the call reverted: a real answer; a read that failed never gets here) */
  readonly balances: ReadonlyMap<string, bigint | null>;
  /** instance metadata by `${token}|${id}` */
  readonly metadata: ReadonlyMap<string, Record<string, unknown> | null>;
  /** end-of-block coin balances: every coin party without prestate diffs, else the withdrawal recipients */
  readonly coinBalances: ReadonlyMap<Address, bigint>;
  /** `eth_getCode` at the block of created contracts whose runtime code no trace gave */
  readonly createdCodes?: ReadonlyMap<Address, Hex>;
  /**
   * without state diffs: storage-only diffs of the proxy slots that changed in the block (read
   * with eth_getStorageAt), for proxy detection alone
   */
  readonly storageDiffs?: readonly PrestateDiff[];
}


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
