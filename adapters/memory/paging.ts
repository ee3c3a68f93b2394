/**
 * Generic keyset paging over arrays already sorted in a list's order.
 *
 * `after` is the cursor test of compare.ts: false for every row up to the cursor and true from
 * there on (it is monotone along the sorted array), so the first page row is found by binary
 * search and a page costs O(log n + rows walked).
 */
import type { Cmp } from './compare.ts';

/** Index of the first element for which the monotone test `after` is true (length if none). */
export function firstAfter<T>(sorted: readonly T[], after: (x: T) => boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (after(sorted[mid])) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** A non-negative integer page size. */
export function pageSize(limit: number): number {
  return Number.isFinite(limit) && limit > 0 ? Math.floor(limit) : 0;
}

/**
 * Up to `limit` elements of `sorted` strictly after the cursor (all of them without a cursor)
 * that pass `keep`, in order.
 */
export function takePage<T>(
  sorted: readonly T[],
  after: ((x: T) => boolean) | null,
  limit: number,
  keep?: (x: T) => boolean,
): T[] {
  const n = pageSize(limit);
  const out: T[] = [];
  if (n === 0) return out;
  for (let i = after === null ? 0 : firstAfter(sorted, after); i < sorted.length && out.length < n; i++) {
    const x = sorted[i];
    if (keep === undefined || keep(x)) out.push(x);
  }
  return out;
}

/**
 * A page over the union of several arrays sorted in the same order (an OR filter served by
 * several indexes). An element present in several arrays (the same object) is listed once.
 * The first `limit` of the union are among the first `limit` of each array, so taking a page
 * from each and merging is exact.
 */
export function takeUnionPage<T extends object>(
  lists: readonly (readonly T[])[],
  order: Cmp<T>,
  after: ((x: T) => boolean) | null,
  limit: number,
  keep?: (x: T) => boolean,
): T[] {
  if (lists.length === 1) return takePage(lists[0], after, limit, keep);
  const seen = new Set<T>();
  for (const list of lists) for (const x of takePage(list, after, limit, keep)) seen.add(x);
  return [...seen].sort(order).slice(0, pageSize(limit));
}

/** Copy of `rows` sorted by `order` (stable). */
export function sortedCopy<T>(rows: Iterable<T>, order: Cmp<T>): T[] {
  return [...rows].sort(order);
}
