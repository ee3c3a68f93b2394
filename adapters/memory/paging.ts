/**
 * Generic keyset paging over arrays already sorted in one of a list's two orders.
 *
 * A page is a walk along the array, forward (the array's order) or backward (its reverse),
 * from the cursor, within an optional window (a block range), keeping the rows that pass a
 * filter. The cursor and the window are monotone tests along the array, so both ends are
 * found by binary search and a page costs O(log n + rows walked).
 */
import type { Cmp } from './compare.ts';

export interface Walk<T> {
  /**
   * where a row lies against the cursor in the array's order: > 0 after it, 0 at it, < 0
   * before it (monotone along the array); null without a cursor
   */
  readonly cursor: ((x: T) => number) | null;
  /** also the row at the cursor */
  readonly inclusive?: boolean;
  /** where a row lies against the wanted slice of the array: < 0 before, 0 in, > 0 past it */
  readonly window?: (x: T) => number;
  /** walk from the end of the array (the list's other order) */
  readonly backward: boolean;
  readonly keep?: (x: T) => boolean;
}

/** Index of the first element for which the monotone test is true (length if none). */
export function firstWhere<T>(sorted: readonly T[], test: (x: T) => boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (test(sorted[mid])) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** A non-negative integer page size. */
export function pageSize(limit: number): number {
  return Number.isFinite(limit) && limit > 0 ? Math.floor(limit) : 0;
}

/** Up to `limit` elements of `sorted` strictly past the cursor in the walk's direction. */
export function takePage<T>(sorted: readonly T[], limit: number, w: Walk<T>): T[] {
  const n = pageSize(limit);
  const out: T[] = [];
  if (n === 0) return out;
  const { cursor, window, keep } = w;
  const lo = window === undefined ? 0 : firstWhere(sorted, (x) => window(x) >= 0);
  const hi = window === undefined ? sorted.length : firstWhere(sorted, (x) => window(x) > 0);
  const push = (x: T) => {
    if (keep === undefined || keep(x)) out.push(x);
  };
  if (!w.backward) {
    const from = cursor === null ? 0 : firstWhere(sorted, w.inclusive === true ? (x) => cursor(x) >= 0 : (x) => cursor(x) > 0);
    for (let i = Math.max(lo, from); i < hi && out.length < n; i++) push(sorted[i]);
  } else {
    const to = cursor === null ? sorted.length : firstWhere(sorted, w.inclusive === true ? (x) => cursor(x) > 0 : (x) => cursor(x) >= 0);
    for (let i = Math.min(hi, to) - 1; i >= lo && out.length < n; i--) push(sorted[i]);
  }
  return out;
}

/**
 * A page over the union of several arrays sorted in the same order (an OR filter served by
 * several indexes). An element present in several arrays (the same object) is listed once.
 * The first `limit` of the union are among the first `limit` of each array, so taking a page
 * from each and merging is exact.
 */
export function takeUnionPage<T extends object>(lists: readonly (readonly T[])[], order: Cmp<T>, limit: number, w: Walk<T>): T[] {
  if (lists.length === 1) return takePage(lists[0], limit, w);
  const seen = new Set<T>();
  for (const list of lists) for (const x of takePage(list, limit, w)) seen.add(x);
  const merged = [...seen].sort(order);
  if (w.backward) merged.reverse();
  return merged.slice(0, pageSize(limit));
}

/** Copy of `rows` sorted by `order` (stable). */
export function sortedCopy<T>(rows: Iterable<T>, order: Cmp<T>): T[] {
  return [...rows].sort(order);
}
