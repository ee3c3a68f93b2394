/**
 * listTokens over token_search (migration 010), whose columns put the list's order ascending:
 * (holders_rank = −holders_count, name_null, name_key, address).
 * - no prefix: one seek on token_search_order, or with types one seek per type on
 *   token_search_type, merged;
 * - a prefix: the prefix ranges of token_search_name and token_search_symbol give the matching
 *   tokens (as many as match, whatever the page), which are then ordered and cut to the page.
 * Rows are joined with tokens and token_holder_counts for the records.
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

const ORDER = ['s."holders_rank"', 's."name_null"', 's."name_key"', 's."address"'];

interface Ranked {
  readonly record: TokenRecord;
  readonly rank: bigint;
  readonly nameNull: number;
  readonly nameKey: string;
}

/** (rank, name_null, name_key, address) ascending: the list's 'desc' order. */
const rankedOrder = (a: Ranked, b: Ranked): number =>
  cmpBig(a.rank, b.rank) || cmpNum(a.nameNull, b.nameNull) || compareCodePoints(a.nameKey, b.nameKey) || cmpStr(a.record.address, b.record.address);

function base(c: SqlContext, order: Order, after: TokenListCursor | null): Knex.QueryBuilder {
  let q = c.knex('token_search as s')
    .join('tokens as t', 't.address', 's.address')
    .leftJoin('token_holder_counts as h', 'h.token_address', 's.address')
    .select('t.*', 'h.holders_count', 's.holders_rank', 's.name_null', 's.name_key');
  if (after !== null) {
    const values: Binding[] = [Number(-after.holdersCount), after.name === null ? 1 : 0, after.name ?? '', after.address];
    q = q.whereRaw(`(${ORDER.join(', ')}) ${order === 'desc' ? '>' : '<'} (?, ?, ?, ?)`, values);
  }
  const dir = order === 'desc' ? 'asc' : 'desc';
  return q.orderByRaw(ORDER.map((col) => `${col} ${dir}`).join(', '));
}

function ranked(r: Row): Ranked {
  return { record: toToken(r), rank: BigInt(String(r.holders_rank)), nameNull: Number(r.name_null), nameKey: String(r.name_key) };
}

export async function listTokens(c: SqlContext, filter: TokenListFilter, page: Page<TokenListCursor>): Promise<readonly TokenRecord[]> {
  const n = pageSize(page.limit);
  if (n === 0) return [];
  const types = filter.types ?? [];
  const prefix = asciiLower(filter.prefix ?? '');
  if (prefix !== '') {
    const bound = prefixBound(prefix);
    const range = (column: string) => {
      const q = c.knex('token_search').select('address').where(column, '>=', prefix);
      return bound === null ? q : q.andWhere(column, '<', bound);
    };
    let q = base(c, page.order, page.after).whereIn('s.address', range('name_lower').union(range('symbol_lower')));
    if (types.length > 0) q = q.whereIn('s.type', [...types]);
    return asRows(await q.limit(n)).map(toToken);
  }
  if (types.length === 0) return asRows(await base(c, page.order, page.after).limit(n)).map(toToken);
  const pages = await Promise.all(types.map(async (type) => asRows(await base(c, page.order, page.after).where('s.type', type).limit(n)).map(ranked)));
  return mergePages(pages, (x) => x.record.address, inOrderOf(rankedOrder, page.order), n).map((x) => x.record);
}
