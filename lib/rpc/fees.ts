/**
 * Fee figures from the store's recent blocks, as anvil and geth suggest them: the base fee of the
 * next block (EIP-1559, from the head's gas used and limit) and a tip — the lowest tip paid in
 * each of the last GAS_PRICE_BLOCKS blocks, their median, at least 1 gwei. `eth_gasPrice` is
 * their sum, `eth_maxPriorityFeePerGas` the tip.
 */
import type { BlockRecord, TransactionRecord } from '../domain/records.ts';
import type { DataSource } from '../ports.ts';
import { transactionsInRange } from './store.ts';

export const GAS_PRICE_BLOCKS = 20;
export const MIN_TIP = 1_000_000_000n;
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

/** What a transaction paid its block's producer per gas (its effective tip); null when unknown. */
export const tipOf = (tx: TransactionRecord): bigint | null =>
  tx.gasPrice === null ? null : tx.baseFeePerGas === null ? tx.gasPrice : tx.gasPrice - tx.baseFeePerGas;

function median(values: readonly bigint[]): bigint | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? null;
}

export interface FeeSuggestion {
  /** the base fee of the block after the head; null on a chain without base fees (or an empty store) */
  readonly nextBaseFee: bigint | null;
  /** the median of the recent blocks' lowest tips (1 gwei without any) */
  readonly typicalTip: bigint;
}

/** The suggestion from the store's head and its last GAS_PRICE_BLOCKS blocks. */
export async function suggestFees(ds: DataSource): Promise<FeeSuggestion> {
  const head = await ds.getHighestBlockNumber();
  if (head === null) return { nextBaseFee: null, typicalTip: MIN_TIP };
  const [block, txs] = await Promise.all([ds.getBlock({ number: head }), transactionsInRange(ds, Math.max(0, head - GAS_PRICE_BLOCKS + 1), head, MAX_TXS)]);
  const lowest = new Map<number, bigint>();
  for (const tx of txs) {
    const tip = tipOf(tx);
    if (tip === null || tx.blockNumber === null) continue;
    const seen = lowest.get(tx.blockNumber);
    if (seen === undefined || tip < seen) lowest.set(tx.blockNumber, tip);
  }
  return { nextBaseFee: block === null ? null : nextBaseFee(block), typicalTip: median([...lowest.values()]) ?? MIN_TIP };
}

/** The tip a wallet is told to pay: the typical tip, at least 1 gwei. */
export const suggestedTip = (s: FeeSuggestion): bigint => (s.typicalTip > MIN_TIP ? s.typicalTip : MIN_TIP);
