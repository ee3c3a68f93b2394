/**
 * `eth_feeHistory(blockCount, newestBlock, rewardPercentiles?)` from the store's blocks, as geth
 * computes it: per block its base fee and gas used ÷ gas limit, the base fee of the block after
 * the newest (EIP-1559), and per requested percentile the effective tip of the transaction at
 * which the block's gas, counted from the lowest tip up, reaches that share (0 for an empty
 * block). The next base fee is the stored block's after the newest, at the head computed from it
 * (anvil answers its pending block's for any newest block: that last entry differs from it
 * below the head). At most MAX_FEE_HISTORY_BLOCKS blocks (a longer count is cut, as geth does). Blob
 * figures are left out (the store keeps none). `pending`, a block above the store's head or a
 * range the store does not hold go to the node when one is configured.
 */
import type { BlockRecord, TransactionRecord } from '../../domain/records.ts';
import type { JsonValue } from '../../json.ts';
import type { RpcMethod } from '../context.ts';
import { forward } from '../context.ts';
import { nextBaseFee, tipOf } from '../fees.ts';
import { blockSpec, hexQuantity, quantity } from '../params.ts';
import { invalidParams, RPC_CODES, rpcError } from '../protocol.ts';
import { resolveNumber, transactionsInRange } from '../store.ts';

export const MAX_FEE_HISTORY_BLOCKS = 1024;
export const MAX_REWARD_PERCENTILES = 100;
/** the transactions read for the rewards of one call */
export const MAX_FEE_HISTORY_TRANSACTIONS = 20_000;

function blockCountOf(value: unknown): number | string {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  const q = quantity(value, 'block count');
  if (!q.ok) return q.message;
  return q.value > BigInt(MAX_FEE_HISTORY_BLOCKS) ? MAX_FEE_HISTORY_BLOCKS : Number(q.value);
}

function percentilesOf(value: unknown): readonly number[] | string {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return 'invalid reward percentiles: expected an array of numbers';
  if (value.length > MAX_REWARD_PERCENTILES) return `invalid reward percentiles: at most ${MAX_REWARD_PERCENTILES}`;
  const out: number[] = [];
  for (const p of value as unknown[]) {
    if (typeof p !== 'number' || !Number.isFinite(p) || p < 0 || p > 100) return `invalid reward percentile: ${String(p)}`;
    const prev = out[out.length - 1];
    if (prev !== undefined && p <= prev) return `invalid reward percentile: ${p} is not above ${prev}`;
    out.push(p);
  }
  return out;
}

/** geth's rewards of one block: the tips sorted ascending, walked by cumulative gas used. */
export function blockRewards(block: BlockRecord, txs: readonly TransactionRecord[], percentiles: readonly number[]): bigint[] {
  if (txs.length === 0) return percentiles.map(() => 0n);
  const sorted = txs
    .map((tx) => ({ gasUsed: tx.gasUsed ?? 0n, tip: tipOf(tx) ?? 0n }))
    .sort((a, b) => (a.tip < b.tip ? -1 : a.tip > b.tip ? 1 : 0));
  let at = 0;
  let sum = sorted[0]?.gasUsed ?? 0n;
  return percentiles.map((p) => {
    const threshold = BigInt(Math.floor((Number(block.gasUsed) * p) / 100));
    while (sum < threshold && at < sorted.length - 1) {
      at++;
      sum += sorted[at]?.gasUsed ?? 0n;
    }
    return sorted[at]?.tip ?? 0n;
  });
}

export const eth_feeHistory: RpcMethod = {
  name: 'eth_feeHistory',
  async run(ctx, params) {
    const count = blockCountOf(params[0]);
    if (typeof count === 'string') return invalidParams(count);
    if (params[1] === undefined) return invalidParams('missing newest block');
    const spec = blockSpec(params[1], 'newest block');
    if (!spec.ok || spec.value.kind === 'hash') return invalidParams(spec.ok ? 'expected a block number or tag' : spec.message);
    const percentiles = percentilesOf(params[2]);
    if (typeof percentiles === 'string') return invalidParams(percentiles);
    const call = { method: 'eth_feeHistory', params };
    if (spec.value.kind === 'tag' && spec.value.tag === 'pending' && ctx.chain.node !== undefined) return forward(ctx, call);
    const [head, newest] = await Promise.all([ctx.ds.getHighestBlockNumber(), resolveNumber(ctx.ds, spec.value)]);
    if (head === null || newest === null || newest > head) {
      if (ctx.chain.node !== undefined) return forward(ctx, call);
      return rpcError(RPC_CODES.serverError, `request beyond head block: requested ${newest ?? 0}, head ${head ?? 0}`);
    }
    const blocks = Math.min(count, newest + 1);
    if (blocks === 0) return { result: { oldestBlock: '0x0' } };
    const oldest = newest - blocks + 1;
    // the block after the newest too: its base fee ends the list (computed from the newest at the head)
    const read = await ctx.ds.listBlocks({ kind: 'block', blocks: { from: oldest, to: newest + 1 } }, { after: null, limit: blocks + 1, order: 'asc' });
    const stored = read.slice(0, blocks);
    const after = read[blocks];
    if (stored.length !== blocks || stored[0]?.number !== oldest) {
      if (ctx.chain.node !== undefined) return forward(ctx, call);
      return rpcError(RPC_CODES.serverError, `the store does not hold blocks ${oldest} to ${newest}`);
    }
    const result: Record<string, JsonValue> = {
      oldestBlock: hexQuantity(oldest),
      baseFeePerGas: [...stored.map((b) => hexQuantity(b.baseFeePerGas ?? 0n)), hexQuantity(after?.baseFeePerGas ?? nextBaseFee(stored[stored.length - 1] as BlockRecord) ?? 0n)],
      gasUsedRatio: stored.map((b) => (b.gasLimit === 0n ? 0 : Number(b.gasUsed) / Number(b.gasLimit))),
    };
    if (percentiles.length > 0) {
      const txs = await transactionsInRange(ctx.ds, oldest, newest, MAX_FEE_HISTORY_TRANSACTIONS + 1);
      if (txs.length > MAX_FEE_HISTORY_TRANSACTIONS) {
        if (ctx.chain.node !== undefined) return forward(ctx, call);
        return rpcError(RPC_CODES.limitExceeded, `the blocks hold more than ${MAX_FEE_HISTORY_TRANSACTIONS} transactions: ask for fewer blocks`);
      }
      const byBlock = new Map<number, TransactionRecord[]>();
      for (const tx of txs) {
        if (tx.blockNumber === null) continue;
        const list = byBlock.get(tx.blockNumber);
        if (list === undefined) byBlock.set(tx.blockNumber, [tx]);
        else list.push(tx);
      }
      result.reward = stored.map((b) => blockRewards(b, byBlock.get(b.number) ?? [], percentiles).map(hexQuantity));
    }
    return { result };
  },
};
