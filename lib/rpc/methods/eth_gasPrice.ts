/**
 * `eth_gasPrice` from recent blocks, as anvil and geth suggest it: the base fee of the next block
 * (EIP-1559, from the head's gas used and limit) plus a tip — the lowest tip paid in each of the
 * last GAS_PRICE_BLOCKS blocks, their median, at least 1 gwei. Without base fees: that median of
 * gas prices (1 gwei on an empty chain).
 */
import type { BlockRecord, TransactionRecord } from '../../domain/records.ts';
import type { RpcMethod } from '../context.ts';
import { hexQuantity } from '../params.ts';
import { transactionsInRange } from '../store.ts';

export const GAS_PRICE_BLOCKS = 20;
const MIN_TIP = 1_000_000_000n;
/** the transactions read to learn the tips (one query) */
const MAX_TXS = 1_000;

/** EIP-1559: the base fee of the block after `block`. */
export function nextBaseFee(block: BlockRecord): bigint | null {
  const base = block.baseFeePerGas;
  if (base === null) return null;
  const target = block.gasLimit / 2n;
  if (target === 0n || block.gasUsed === target) return base;
  if (block.gasUsed > target) {
    const delta = (base * (block.gasUsed - target)) / target / 8n;
    return base + (delta > 1n ? delta : 1n);
  }
  return base - (base * (target - block.gasUsed)) / target / 8n;
}

const tipOf = (tx: TransactionRecord): bigint | null =>
  tx.gasPrice === null ? null : tx.baseFeePerGas === null ? tx.gasPrice : tx.gasPrice - tx.baseFeePerGas;

function median(values: readonly bigint[]): bigint | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? null;
}

export const eth_gasPrice: RpcMethod = {
  name: 'eth_gasPrice',
  async run(ctx) {
    const head = await ctx.ds.getHighestBlockNumber();
    if (head === null) return { result: hexQuantity(MIN_TIP) };
    const [block, txs] = await Promise.all([
      ctx.ds.getBlock({ number: head }),
      transactionsInRange(ctx.ds, Math.max(0, head - GAS_PRICE_BLOCKS + 1), head, MAX_TXS),
    ]);
    const lowest = new Map<number, bigint>();
    for (const tx of txs) {
      const tip = tipOf(tx);
      if (tip === null || tx.blockNumber === null) continue;
      const seen = lowest.get(tx.blockNumber);
      if (seen === undefined || tip < seen) lowest.set(tx.blockNumber, tip);
    }
    const typical = median([...lowest.values()]) ?? MIN_TIP;
    const base = block === null ? null : nextBaseFee(block);
    if (base === null) return { result: hexQuantity(typical) };
    return { result: hexQuantity(base + (typical > MIN_TIP ? typical : MIN_TIP)) };
  },
};
