/**
 * Blocks by time, without a scan: block timestamps never decrease along the consensus chain, so
 * a binary search over numbers finds the boundary in O(log head) single-row queries.
 */
import type { BlockRecord } from '../../domain/records.ts';
import type { DataSource } from '../../ports.ts';

/** The consensus block at or below `n` (gaps skipped), or null. */
async function atOrBelow(ds: DataSource, n: number): Promise<BlockRecord | null> {
  const [b] = await ds.listBlocks({ kind: 'block', blocks: { to: n } }, { after: null, limit: 1, order: 'desc' });
  return b ?? null;
}

/** The consensus block at or above `n`, or null. */
async function atOrAbove(ds: DataSource, n: number): Promise<BlockRecord | null> {
  const [b] = await ds.listBlocks({ kind: 'block', blocks: { from: n } }, { after: null, limit: 1, order: 'asc' });
  return b ?? null;
}

/** The last consensus block with timestamp ≤ `ts`, or null. */
export async function lastAtOrBefore(ds: DataSource, ts: number): Promise<BlockRecord | null> {
  const [first, head] = await Promise.all([atOrAbove(ds, 0), ds.getHighestBlockNumber()]);
  if (first === null || head === null || first.timestamp > ts) return null;
  let lo = first.number; // its block is ≤ ts
  let hi = head;
  while (lo < hi) {
    const mid = lo + Math.ceil((hi - lo) / 2);
    const b = await atOrBelow(ds, mid);
    if (b !== null && b.timestamp <= ts) lo = mid;
    else hi = mid - 1;
  }
  return atOrBelow(ds, lo);
}

/** The first consensus block with timestamp ≥ `ts`, or null. */
export async function firstAtOrAfter(ds: DataSource, ts: number): Promise<BlockRecord | null> {
  const before = await lastAtOrBefore(ds, ts - 1);
  return atOrAbove(ds, before === null ? 0 : before.number + 1);
}
