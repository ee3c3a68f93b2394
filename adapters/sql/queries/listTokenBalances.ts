/**
 * listTokenBalances: current balances of a holder, one seek per token type; listTokenHoldings:
 * the same seeks with each balance's token row joined in (one statement, no lookup per token).
 */
import type { CurrentTokenBalance, Page, TokenBalanceCursor, TokenBalanceFilter, TokenHolding } from '../../../lib/ports.ts';
import type { Row } from '../rows.ts';
import { asRows, HOLDING_COLUMNS, toCurrentBalance, toHolding } from '../rows.ts';
import type { SqlContext } from './context.ts';
import { cmpBig, cmpStr, inOrderOf, mergePages, orderBy, pageSize, past } from './seek.ts';

export function listTokenBalances(c: SqlContext, filter: TokenBalanceFilter, page: Page<TokenBalanceCursor>): Promise<readonly CurrentTokenBalance[]> {
  return seekBalances(c, filter, page, false, (r) => toCurrentBalance(r, c.d));
}

export function listTokenHoldings(c: SqlContext, filter: TokenBalanceFilter, page: Page<TokenBalanceCursor>): Promise<readonly TokenHolding[]> {
  // one JSON cell a row (Dialect.jsonArray): node-sqlite3 builds every cell with a native call, so 12 cells as columns cost more CPU than one packed cell and its JSON.parse (figures: bench/RESULTS.md)
  return seekBalances(c, filter, page, true, (r) => toHolding(filter.holder, c.d.fromJsonArray(r.holding), c.d));
}

async function seekBalances<T extends CurrentTokenBalance>(
  c: SqlContext,
  filter: TokenBalanceFilter,
  page: Page<TokenBalanceCursor>,
  withTokens: boolean,
  decode: (r: Row) => T,
): Promise<readonly T[]> {
  const { knex, d } = c;
  const n = pageSize(page.limit);
  if (n === 0) return [];
  const at = page.after;
  const seek = async (type: string | null) => {
    let q = knex('current_token_balances as b').where('b.holder', filter.holder);
    if (withTokens) {
      q = q
        .leftJoin('tokens as t', 't.address', 'b.token_address')
        .leftJoin('token_holder_counts as h', 'h.token_address', 'b.token_address')
        .select(knex.raw(`${d.jsonArray(HOLDING_COLUMNS)} as holding`));
    }
    if (type !== null) q = q.andWhere('b.token_type', type);
    if (at !== null) q = past(q, ['b."value"', 'b."token_address"', 'b."token_id"'], [d.probe(at.value), at.tokenAddress, d.probe(at.tokenId)], page.order);
    const rows = asRows(await q.orderBy(orderBy([['b.value', 'desc'], ['b.token_address', 'desc'], ['b.token_id', 'desc']], page.order)).limit(n));
    return rows.map(decode);
  };
  const types = filter.types === undefined ? [null] : [...new Set(filter.types)];
  const pages = [];
  for (const t of types) pages.push(await seek(t));
  if (pages.length === 0) return [];
  const balanceCmp = (a: T, b: T) =>
    cmpBig(b.value, a.value) ||
    cmpStr(b.tokenAddress, a.tokenAddress) ||
    (a.tokenId === b.tokenId ? 0 : a.tokenId === null ? 1 : b.tokenId === null ? -1 : cmpBig(b.tokenId, a.tokenId));
  return mergePages(pages, (b) => `${b.tokenAddress}|${String(b.tokenId)}`, inOrderOf(balanceCmp, page.order), n);
}
