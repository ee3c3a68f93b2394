/**
 * The average block time, as Blockscout computes it (its AverageBlockTime counter), from
 * recent consensus blocks: shared by `/blocks/{n}/countdown` and (later) `/stats`.
 *
 * Window: the consensus blocks above block 0, newest first, skipping the newest 100 and taking
 * the next 100 (Blockscout leaves the newest blocks out while they may still be catching up).
 * A chain too short for that window (fewer than two blocks in it) uses its newest 100 blocks
 * instead, so that a young chain still gets an estimate (Blockscout answers 0 there).
 *
 * Within the window, blocks are ordered by timestamp (newest first); each neighbouring pair
 * whose numbers differ contributes (time difference) / (number difference); the average of
 * those, rounded to whole milliseconds, is the answer (0 with fewer than two blocks).
 */
import type { BlockFiguresRecord, DataSource } from '../ports.ts';

/** Blocks per window and blocks skipped at the head (Blockscout's figures). */
export const AVERAGE_WINDOW = 100;
export const HEAD_SKIPPED = 100;

export interface BlockTime {
  readonly number: number;
  /** unix seconds */
  readonly timestamp: number;
}

/** The average spacing of `blocks` in whole milliseconds (any order in; 0 for fewer than two). */
export function averageSpacingMs(blocks: readonly BlockTime[]): number {
  const byTime = [...blocks].sort((a, b) => b.timestamp - a.timestamp || b.number - a.number);
  let sum = 0;
  let count = 0;
  for (let i = 1; i < byTime.length; i++) {
    const newer = byTime[i - 1] as BlockTime;
    const older = byTime[i] as BlockTime;
    const gap = newer.number - older.number;
    if (gap <= 0) continue;
    sum += ((newer.timestamp - older.timestamp) * 1000) / gap;
    count++;
  }
  return count === 0 ? 0 : Math.round(sum / count);
}

/** The blocks the average is taken over, from the newest consensus blocks (newest first). */
export function averageWindow(newestFirst: readonly BlockTime[]): readonly BlockTime[] {
  const eligible = newestFirst.filter((b) => b.number > 0);
  const window = eligible.slice(HEAD_SKIPPED, HEAD_SKIPPED + AVERAGE_WINDOW);
  return window.length >= 2 ? window : eligible.slice(0, AVERAGE_WINDOW);
}

/** The newest consensus blocks' figures the average (and /stats) is taken from: one bounded, narrow query. */
export function newestBlockFigures(ds: DataSource): Promise<readonly BlockFiguresRecord[]> {
  const filter = { kind: 'block' } as const;
  const page = { after: null, limit: HEAD_SKIPPED + AVERAGE_WINDOW + 1, order: 'desc' } as const;
  // a store without the narrow read: the same blocks, whole (a BlockRecord holds every figure)
  return ds.listBlockFigures === undefined ? ds.listBlocks(filter, page) : ds.listBlockFigures(filter, page);
}

/** The chain's average block time in milliseconds (one bounded query: the newest 201 blocks' figures). */
export async function averageBlockTimeMs(ds: DataSource): Promise<number> {
  return averageSpacingMs(averageWindow(await newestBlockFigures(ds)));
}
