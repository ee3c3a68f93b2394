/** listTokenBalances: current balances of a holder, one seek per token type. */
import type { CurrentTokenBalance, Page, TokenBalanceCursor, TokenBalanceFilter } from '../../../lib/ports.ts';
import { asRows, toCurrentBalance } from '../rows.ts';
import type { SqlContext } from './context.ts';
import { cmpBig, cmpStr, inOrderOf, mergePages, orderBy, pageSize, past } from './seek.ts';

export async function listTokenBalances(c: SqlContext, filter: TokenBalanceFilter, page: Page<TokenBalanceCursor>): Promise<readonly CurrentTokenBalance[]> {
  const { knex, d } = c;
  const n = pageSize(page.limit);
  if (n === 0) return [];
  const at = page.after;
  const seek = async (type: string | null) => {
    let q = knex('current_token_balances').where('holder', filter.holder);
    if (type !== null) q = q.andWhere('token_type', type);
    if (at !== null) q = past(q, ['"value"', '"token_address"', '"token_id"'], [d.probe(at.value), at.tokenAddress, d.probe(at.tokenId)], page.order);
    const rows = asRows(await q.orderBy(orderBy([['value', 'desc'], ['token_address', 'desc'], ['token_id', 'desc']], page.order)).limit(n));
    return rows.map((r) => toCurrentBalance(r, d));
  };
  const types = filter.types === undefined ? [null] : [...new Set(filter.types)];
  const pages = [];
  for (const t of types) pages.push(await seek(t));
  if (pages.length === 0) return [];
  const balanceCmp = (a: CurrentTokenBalance, b: CurrentTokenBalance) =>
    cmpBig(b.value, a.value) ||
    cmpStr(b.tokenAddress, a.tokenAddress) ||
    (a.tokenId === b.tokenId ? 0 : a.tokenId === null ? 1 : b.tokenId === null ? -1 : cmpBig(b.tokenId, a.tokenId));
  return mergePages(pages, (b) => `${b.tokenAddress}|${String(b.tokenId)}`, inOrderOf(balanceCmp, page.order), n);
}
