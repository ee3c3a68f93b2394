/**
 * Offset paging over keyset ports. The dialect pages by `page`/`offset`; the ports page by
 * cursor. A window (skip, take) is served by walking the list from its start in keyset pages
 * until skip + take rows are seen (≤ 10000 by the result-window rule), never by scanning the
 * chain: each step is one bounded port query.
 */
import type { Window } from './params.ts';

/** Rows per port query while walking to a window. */
export const WALK_CHUNK = 1000;
/**
 * With a row filter applied in lib (include_zero_value=false, getLogs' topics, tokenbalance's
 * token), at most this many records are read: the answer then holds what they matched.
 */
export const MAX_SCANNED = 50_000;

/**
 * The rows of `window` of a list: `fetch(after, limit)` reads the list after record `after`
 * (null: from the start); `expand` turns a record into its rows (none: filtered out; several:
 * an ERC-1155 batch, one row per id).
 */
export async function collectWindow<R, O>(
  fetch: (after: R | null, limit: number) => Promise<readonly R[]>,
  window: Window,
  expand: (record: R) => readonly O[],
): Promise<readonly O[]> {
  const need = window.skip + window.take;
  const out: O[] = [];
  let after: R | null = null;
  let scanned = 0;
  // once a record was filtered out, more may be: read whole chunks rather than what is missing
  let filtering = false;
  while (out.length < need && scanned < MAX_SCANNED) {
    const limit = filtering ? WALK_CHUNK : Math.min(WALK_CHUNK, Math.max(need - out.length, 1));
    const rows: readonly R[] = await fetch(after, limit);
    scanned += rows.length;
    for (const r of rows) {
      const expanded = expand(r);
      if (expanded.length === 0) filtering = true;
      out.push(...expanded);
    }
    if (rows.length < limit) break;
    after = rows[rows.length - 1] as R;
  }
  return out.slice(window.skip, need);
}

export const one = <R>(r: R): readonly R[] => [r];
