/** getCoinBalance: an address's coin balance at the newest consensus block that recorded one. */
import type { Address } from '../../../lib/domain/records.ts';
import { asRows, big } from '../rows.ts';
import type { SqlContext } from './context.ts';

export async function getCoinBalance(c: SqlContext, address: Address): Promise<bigint | null> {
  const rows = asRows(
    await c
      .knex('coin_balances as c')
      .join('blocks as b', 'b.hash', 'c.block_hash')
      .select('c.value')
      .where({ 'c.address': address, 'b.consensus': true })
      .orderBy([
        { column: 'c.block_number', order: 'desc' },
        { column: 'c.seq', order: 'desc' },
      ])
      .limit(1),
  );
  return rows.length === 0 ? null : big(rows[0], 'value');
}
