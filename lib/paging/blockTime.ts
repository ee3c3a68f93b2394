/**
 * Block numbers from block times, by binary search over `getBlock({ number })` (consensus
 * blocks are in time order): ⌈log₂(head + 2)⌉ point lookups by the block number key.
 */
import type { DataSource } from '../ports.ts';

/** The lowest block number whose timestamp is at or after `ts` (unix seconds); head + 1 when none. */
export async function firstBlockAtOrAfter(ds: DataSource, head: number, ts: number): Promise<number> {
  let lo = 0;
  let hi = head + 1;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    const block = await ds.getBlock({ number: mid });
    if (block === null || block.timestamp >= ts) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
