/** listCoinBalances: one address's coin balance history, a seek on coin_balances_latest (address, block_number). */
import type { Address, CoinBalanceRecord } from '../../../lib/domain/records.ts';
import type { CoinBalanceCursor, CoinBalanceFilter, Page } from '../../../lib/ports.ts';
import { asRows, big, num, address } from '../rows.ts';
import type { SqlContext } from './context.ts';
import { orderBy, pageSize, past, within } from './seek.ts';

export async function listCoinBalances(c: SqlContext, filter: CoinBalanceFilter, page: Page<CoinBalanceCursor>): Promise<readonly CoinBalanceRecord[]> {
  const n = pageSize(page.limit);
  if (n === 0) return [];
  let q = c.knex('coin_balances').select('address', 'block_number', 'value').where('address', filter.address);
  if (page.after !== null) q = past(q, ['block_number'], [page.after.blockNumber], page.order);
  q = within(q, 'block_number', filter.blocks);
  const rows = asRows(await q.orderBy(orderBy([['block_number', 'desc']], page.order)).limit(n));
  return rows.map((r) => ({ address: address(r, 'address'), blockNumber: num(r, 'block_number'), value: big(r, 'value') }));
}
