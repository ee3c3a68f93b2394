/**
 * listTokens over token_search (migrations 010, 015), whose columns put the list's order
 * ascending: (holders_rank = −holders_count, name_null, name_key, address).
 * - no prefix: one seek on token_search_order, or with types one seek per type on
 *   token_search_type, merged;
 * - a prefix: first the matches are counted, up to PREFIX_PLAN.sortCap, on the covering
 *   token_search_name / token_search_symbol ranges (index entries only). Fewer than the cap: the
 *   matches past the cursor are read from those ranges and ordered (a top-n sort of fewer than
 *   sortCap entries). The cap or more: the list's order is walked from the cursor on the covering
 *   token_search_order (or token_search_type, per type, merged), testing the prefix on each
 *   entry — with that many matches a page is usually found after a short walk; a walk that has
 *   read PREFIX_PLAN.walkBudget entries short of a page (sparse matches, or the list's end) gives
 *   way to reading and ordering the matches. Every way is exact.
 * Only the page's rows are read from tokens for the records.
 */
import type { Knex } from 'knex';
import type { TokenRecord } from '../../../lib/domain/records.ts';
import { asciiLower, compareCodePoints, prefixBound } from '../../../lib/domain/text.ts';
import type { Order, Page, TokenListCursor, TokenListFilter } from '../../../lib/ports.ts';
import type { Binding } from '../dialect.ts';
import { asRows, toToken } from '../rows.ts';
import type { Row } from '../rows.ts';
import type { SqlContext } from './context.ts';
import { cmpBig, cmpNum, cmpStr, inOrderOf, mergePages, pageSize } from './seek.ts';

/** How a prefix is answered (adjustable for tests: each way must give the same pages). */
export interface PrefixPlan {
  /** the most matches read and ordered; from this many on, the list's order is walked instead */
  readonly sortCap: number;
  /** the most index entries a walk reads: short of a page by then, the matches are read and ordered */
  readonly walkBudget: number;
}
export const PREFIX_PLAN: PrefixPlan = { sortCap: 1000, walkBudget: 5000 };

const KEY = ['s.holders_rank', 's.name_null', 's.name_key', 's.address'];
const PREFIX_COLUMNS = ['name_lower', 'symbol_lower'] as const;

interface Ranked {
  readonly record: TokenRecord;
  readonly rank: bigint;
  readonly nameNull: number;
  readonly nameKey: string;
}

/** (rank, name_null, name_key, address) ascending: the list's 'desc' order. */
const rankedOrder = (a: Ranked, b: Ranked): number =>
  cmpBig(a.rank, b.rank) || cmpNum(a.nameNull, b.nameNull) || compareCodePoints(a.nameKey, b.nameKey) || cmpStr(a.record.address, b.record.address);

/** ORDER BY the key in the page's order ('desc' is the key ascending). */
const orderOf = (order: Order) => KEY.map((col) => `${col} ${order === 'desc' ? 'asc' : 'desc'}`).join(', ');

/** token_search rows past the cursor, in the page's order, at most n (`index`: the one to walk). */
function seek(c: SqlContext, page: Page<TokenListCursor>, n: number, index?: string): Knex.QueryBuilder {
  let q = c.knex(index === undefined ? 'token_search as s' : c.knex.raw(c.d.through('token_search', 's', index)));
  const after = page.after;
  if (after !== null) {
    const values: Binding[] = [Number(-after.holdersCount), after.name === null ? 1 : 0, after.name ?? '', after.address];
    q = q.whereRaw(`(${KEY.join(', ')}) ${page.order === 'desc' ? '>' : '<'} (?, ?, ?, ?)`, values);
  }
  return q.orderByRaw(orderOf(page.order)).limit(n);
}

/**
 * The records of token_search rows `s` (the page's rows only: joined after the LIMIT of `s`);
 * the holders count is −holders_rank (token_search is kept in step with token_holder_counts).
 */
const withRecords = (q: Knex.QueryBuilder, c: SqlContext): Knex.QueryBuilder =>
  q.join('tokens as t', 't.address', 's.address').select('t.*', c.knex.raw('0 - s.holders_rank AS holders_count'), 's.holders_rank', 's.name_null', 's.name_key');

/** A seek's page with its records, in its order (the joins follow the walk, row by row). */
const records = async (c: SqlContext, q: Knex.QueryBuilder): Promise<Ranked[]> => asRows(await withRecords(q, c)).map(ranked);

/**
 * The records of a few token_search keys (a prefix's page, at most a page of them): the keys
 * joined to their tokens in one statement (a primary-key lookup per key), in the page's order.
 */
async function keyedRecords(c: SqlContext, keys: Knex.QueryBuilder, order: Order): Promise<Ranked[]> {
  const rows = asRows(
    await c.knex
      .from(keys.as('k'))
      .join('tokens as t', 't.address', 'k.address')
      .select('t.*', c.knex.raw('0 - k.holders_rank AS holders_count'), 'k.holders_rank', 'k.name_null', 'k.name_key'),
  );
  return rows.map(ranked).sort(inOrderOf(rankedOrder, order));
}

function ranked(r: Row): Ranked {
  return { record: toToken(r), rank: BigInt(String(r.holders_rank)), nameNull: Number(r.name_null), nameKey: String(r.name_key) };
}

/** `column` starts with the (ASCII-lower-cased) prefix: a range of the column. */
function inRange(q: Knex.QueryBuilder, column: string, prefix: string): Knex.QueryBuilder {
  const bound = prefixBound(prefix);
  q = q.where(column, '>=', prefix);
  return bound === null ? q : q.andWhere(column, '<', bound);
}

/** How many tokens match by name plus by symbol, each counted up to `cap` (index entries only): one statement. */
async function countMatches(c: SqlContext, prefix: string, cap: number): Promise<number> {
  // ORDER BY the range's column: read from its index (never a table scan with a filter, which a
  // planner may prefer on a small table whose index-only reads still visit the heap)
  const counted = (column: string) => c.knex.from(inRange(c.knex('token_search').select(column), column, prefix).orderBy(column).limit(cap).as('m')).count('*');
  const row = asRows(await c.knex.select(Object.fromEntries(PREFIX_COLUMNS.map((column) => [column, counted(column)]))))[0];
  return PREFIX_COLUMNS.reduce((sum, column) => sum + Number(row?.[column] ?? 0), 0);
}

/**
 * Few matches: each prefix range's first n entries past the cursor (a top-n sort of index
 * entries), their union (one statement), then the records, ordered and cut to n.
 */
async function sortedMatches(c: SqlContext, prefix: string, types: readonly string[], page: Page<TokenListCursor>, n: number): Promise<Ranked[]> {
  const [first, ...rest] = PREFIX_COLUMNS.map((column, i) => {
    let q = inRange(seek(c, page, n).select(KEY), `s.${column}`, prefix);
    if (types.length > 0) q = q.whereIn('s.type', [...types]);
    return c.knex.select('*').from(q.as(`r${i}`));
  });
  const rows = await keyedRecords(c, first.union(rest), page.order);
  return rows.sort(inOrderOf(rankedOrder, page.order)).slice(0, n);
}

/**
 * Many matches: the list's order walked from the cursor over at most `budget` index entries
 * (per type), each entry's name and symbol tested, the first n matches, then their records. null when a walk ends its budget short of n matches: the matches past it are unknown.
 */
async function walkedMatches(c: SqlContext, prefix: string, types: readonly string[], page: Page<TokenListCursor>, n: number, budget: number): Promise<Ranked[] | null> {
  const walk = async (entries: Knex.QueryBuilder): Promise<Ranked[] | null> => {
    const stretch = entries.select([...KEY, ...PREFIX_COLUMNS.map((column) => `s.${column}`)]).limit(budget);
    const matches = c.knex
      .from(stretch.as('s'))
      .select(KEY)
      .where((w) => PREFIX_COLUMNS.reduce((o, column) => o.orWhere((r) => inRange(r, `s.${column}`, prefix)), w))
      .orderByRaw(orderOf(page.order))
      .limit(n);
    const rows = await keyedRecords(c, matches, page.order);
    return rows.length < n ? null : rows;
  };
  const pages = await Promise.all(
    types.length === 0 ? [walk(seek(c, page, n, 'token_search_order'))] : types.map((type) => walk(seek(c, page, n, 'token_search_type').where('s.type', type))),
  );
  const found = pages.filter((p): p is Ranked[] => p !== null);
  return found.length < pages.length ? null : mergePages(found, (x) => x.record.address, inOrderOf(rankedOrder, page.order), n);
}

export async function listTokens(
  c: SqlContext,
  filter: TokenListFilter,
  page: Page<TokenListCursor>,
  { sortCap, walkBudget }: PrefixPlan = PREFIX_PLAN,
): Promise<readonly TokenRecord[]> {
  const n = pageSize(page.limit);
  if (n === 0) return [];
  const types = filter.types ?? [];
  const prefix = asciiLower(filter.prefix ?? '');
  if (prefix !== '') {
    const many = (await countMatches(c, prefix, sortCap)) >= sortCap;
    const walked = many ? await walkedMatches(c, prefix, types, page, n, walkBudget) : null;
    return (walked ?? (await sortedMatches(c, prefix, types, page, n))).map((x) => x.record);
  }
  if (types.length === 0) return (await records(c, seek(c, page, n))).map((x) => x.record);
  const pages = await Promise.all(types.map((type) => records(c, seek(c, page, n).where('s.type', type))));
  return mergePages(pages, (x) => x.record.address, inOrderOf(rankedOrder, page.order), n).map((x) => x.record);
}
