/**
 * Keyset paging over SQL: page sizes, ORDER BY in either order, row-value seeks, block ranges,
 * address sides, and the merge of several seeks (an OR filter) into one page.
 */
import type { Knex } from 'knex';
import type { Address } from '../../../lib/domain/records.ts';
import type { BlockRange, Direction, Order } from '../../../lib/ports.ts';
import type { Binding } from '../dialect.ts';
import type { Row } from '../rows.ts';
import { asRows } from '../rows.ts';

export type OrderBy = { column: string; order: 'asc' | 'desc' }[];

/** The columns an address filter seeks: the sending side, the receiving sides, or all. */
export function sideColumns(direction: Direction | undefined, from: string, to: readonly string[]): string[] {
  return direction === 'from' ? [from] : direction === 'to' ? [...to] : [from, ...to];
}

export function pageSize(limit: number): number {
  return Number.isFinite(limit) && limit > 0 ? Math.floor(limit) : 0;
}

/** Merge the pages of several seeks over one order: dedupe by key, sort, cut. */
export function mergePages<T>(pages: readonly (readonly T[])[], key: (x: T) => string, cmp: (a: T, b: T) => number, limit: number): T[] {
  if (pages.length === 1) return [...pages[0]];
  const seen = new Map<string, T>();
  for (const p of pages) for (const x of p) if (!seen.has(key(x))) seen.set(key(x), x);
  return [...seen.values()].sort(cmp).slice(0, limit);
}
/**
 * The rows of several seeks (the branches of an OR filter) in one statement, one page per branch
 * in branch order: each branch keeps its ORDER BY … LIMIT inside a subquery, the subqueries are
 * joined by UNION ALL — one round trip instead of one per branch. A branch's rows carry its
 * number in `seek_branch` (the record mappers ignore the column).
 */
export async function seekPages(knex: Knex, branches: readonly Knex.QueryBuilder[]): Promise<Row[][]> {
  if (branches.length <= 1) return Promise.all(branches.map(async (b) => asRows(await b)));
  const [first, ...rest] = branches.map((b, i) => knex.select('*', knex.raw(`${i} as seek_branch`)).from(b.as(`seek${i}`)));
  const pages: Row[][] = branches.map(() => []);
  for (const r of asRows(await first?.unionAll(rest))) pages[Number(r.seek_branch)]?.push(r);
  return pages;
}
export const cmpNum = (a: number, b: number) => (a < b ? -1 : a > b ? 1 : 0);
export const cmpBig = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);
export const cmpStr = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function inOrder<T, K>(keys: readonly K[], found: ReadonlyMap<K, T>): T[] {
  const out: T[] = [];
  const seen = new Set<K>();
  for (const k of keys) {
    if (seen.has(k)) continue;
    seen.add(k);
    const v = found.get(k);
    if (v !== undefined) out.push(v);
  }
  return out;
}

/** ORDER BY of a list given in its 'desc' form; 'asc' flips every column. */
export const orderBy = (columns: readonly (readonly [string, 'asc' | 'desc'])[], order: Order): OrderBy =>
  columns.map(([column, dir]) => ({ column, order: order === 'desc' ? dir : dir === 'desc' ? 'asc' : 'desc' }));
/** Rows past the cursor on columns that all sort the same way (a row-value seek). */
export const past = (q: Knex.QueryBuilder, columns: readonly string[], values: readonly Binding[], order: Order, inclusive = false) =>
  q.whereRaw(`(${columns.join(', ')}) ${order === 'desc' ? '<' : '>'}${inclusive ? '=' : ''} (${values.map(() => '?').join(', ')})`, [...values]);
/** Rows whose block number lies in the range. */
export const within = (q: Knex.QueryBuilder, column: string, r: BlockRange | undefined) => {
  if (r?.from !== undefined) q = q.andWhere(column, '>=', r.from);
  if (r?.to !== undefined) q = q.andWhere(column, '<=', r.to);
  return q;
};
/** An address filter as a row condition (when another index leads the seek). */
export const touching = (q: Knex.QueryBuilder, address: Address | undefined, direction: Direction | undefined, from: string, to: readonly string[]) => {
  if (address === undefined) return q;
  const columns = sideColumns(direction, from, to);
  return q.where((w) => {
    for (const c of columns) w.orWhere(c, address);
  });
};
/** A desc comparator turned to the page's order. */
export const inOrderOf = <T>(cmp: (a: T, b: T) => number, order: Order) => (order === 'desc' ? cmp : (a: T, b: T) => cmp(b, a));
