/**
 * getCoinBalances: the current coin balance of a batch of addresses, as the writer keeps it in
 * address_counters (balance, balance_block: the latest consensus coin balance record);
 * primary-key lookups, in the order asked, each address once.
 */
import type { Address, CoinBalanceRecord } from '../../../lib/domain/records.ts';
import { toBig } from '../dialect.ts';
import { asRows, num, str } from '../rows.ts';
import { KEY_CHUNK, chunks } from '../sql.ts';
import type { SqlContext } from './context.ts';
import { inOrder } from './seek.ts';

export async function getCoinBalances(c: SqlContext, addresses: readonly Address[]): Promise<readonly CoinBalanceRecord[]> {
  const parts = await Promise.all(
    chunks([...new Set(addresses)], KEY_CHUNK).map(async (part) =>
      asRows(await c.knex('address_counters').select('address', 'balance', 'balance_block').whereIn('address', part).whereNotNull('balance')),
    ),
  );
  const found = new Map<Address, CoinBalanceRecord>();
  for (const r of parts.flat()) {
    const address = str(r, 'address') as Address;
    found.set(address, { address, blockNumber: num(r, 'balance_block'), value: toBig(r.balance) });
  }
  return inOrder(addresses, found);
}
