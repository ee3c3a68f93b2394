/**
 * listTokenHolders: one seek over current_token_balances — holders_token (token_address, value
 * DESC, holder DESC, token_id DESC) or, for one id, holders_id (token_address, token_id, …).
 */
import type { CurrentTokenBalance, Page, TokenHolderCursor, TokenHolderFilter } from '../../../lib/ports.ts';
import { asRows, toCurrentBalance } from '../rows.ts';
import type { SqlContext } from './context.ts';
import { orderBy, pageSize, past } from './seek.ts';

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

export async function listTokenHolders(c: SqlContext, filter: TokenHolderFilter, page: Page<TokenHolderCursor>): Promise<readonly CurrentTokenBalance[]> {
  const { knex, d } = c;
  const n = pageSize(page.limit);
  if (n === 0) return [];
  const at = page.after;
  let q = knex('current_token_balances').where('token_address', filter.tokenAddress).andWhereNot('holder', ZERO_ADDRESS);
  const order: [string, 'desc'][] = [['value', 'desc'], ['holder', 'desc']];
  if (filter.tokenId !== undefined) {
    q = q.andWhere('token_id', d.probe(filter.tokenId));
    if (at !== null) q = past(q, ['"value"', '"holder"'], [d.probe(at.value), at.holder], page.order);
  } else {
    order.push(['token_id', 'desc']);
    if (at !== null) q = past(q, ['"value"', '"holder"', '"token_id"'], [d.probe(at.value), at.holder, d.probe(at.tokenId)], page.order);
  }
  const rows = asRows(await q.orderBy(orderBy(order, page.order)).limit(n));
  return rows.map((r) => toCurrentBalance(r, d));
}
