/**
 * Gas price estimates and network utilization from recent consensus blocks (the `/stats`
 * figures), computed from the blocks' figures alone (gas used, gas limit, transaction fees):
 * - a block's price is its gas-weighted mean effective gas price (transactionFees / gasUsed);
 *   blocks without gas used are left out;
 * - slow / average / fast = the 35th / 60th / 90th percentile (discrete: the first price whose
 *   cumulative share reaches the percentile) of those prices over the newest GAS_PRICE_BLOCKS
 *   blocks, in gwei rounded up to 2 decimals; null without a priced block;
 * - utilization = Σ gasUsed / Σ gasLimit × 100 over the newest UTILIZATION_BLOCKS blocks (0 without blocks).
 */
import type { BlockFiguresRecord } from '../ports.ts';

/** The figures a block contributes (a BlockRecord, or the narrow BlockFiguresRecord the store reads for /stats). */
export type BlockGas = Pick<BlockFiguresRecord, 'gasUsed' | 'gasLimit' | 'transactionFees'>;

export const GAS_PRICE_BLOCKS = 200;
export const UTILIZATION_BLOCKS = 50;
export const GAS_PRICE_PERCENTILES = { slow: 35, average: 60, fast: 90 } as const;

export interface GasPrices {
  readonly slow: number | null;
  readonly average: number | null;
  readonly fast: number | null;
}

/** wei → gwei, rounded up to 2 decimals. */
export function gweiCeil2(wei: bigint): number {
  const hundredths = (wei + 9_999_999n) / 10_000_000n;
  return Number(hundredths) / 100;
}

/** The discrete percentile `p` (0..100) of ascending values. */
export function percentileDisc(ascending: readonly bigint[], p: number): bigint | null {
  if (ascending.length === 0) return null;
  const i = Math.max(0, Math.ceil((p / 100) * ascending.length) - 1);
  return ascending[Math.min(i, ascending.length - 1)] ?? null;
}

/** Gas price estimates from the newest blocks (newest first in, any length). */
export function gasPrices(newestFirst: readonly BlockGas[]): GasPrices {
  const prices = newestFirst
    .slice(0, GAS_PRICE_BLOCKS)
    .filter((b) => b.gasUsed > 0n)
    .map((b) => b.transactionFees / b.gasUsed)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const at = (p: number) => {
    const v = percentileDisc(prices, p);
    return v === null ? null : gweiCeil2(v);
  };
  return { slow: at(GAS_PRICE_PERCENTILES.slow), average: at(GAS_PRICE_PERCENTILES.average), fast: at(GAS_PRICE_PERCENTILES.fast) };
}

/** Σ gasUsed / Σ gasLimit × 100 over the newest blocks (newest first in). */
export function networkUtilization(newestFirst: readonly BlockGas[]): number {
  let used = 0n;
  let limit = 0n;
  for (const b of newestFirst.slice(0, UTILIZATION_BLOCKS)) {
    used += b.gasUsed;
    limit += b.gasLimit;
  }
  if (limit === 0n) return 0;
  // 1e-9 resolution, exact for any gas figures
  return Number((used * 100_000_000_000n) / limit) / 1e9;
}
