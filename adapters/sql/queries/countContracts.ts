/**
 * countContracts: all of them from the kept counter (contract_counter, moved by every write and
 * rollback), or those created since a time by a range count on contracts_time.
 */
import type { ContractCountFilter } from '../../../lib/ports.ts';
import { asRows, num } from '../rows.ts';
import type { SqlContext } from './context.ts';

export async function countContracts(c: SqlContext, filter: ContractCountFilter): Promise<number> {
  if (filter.createdSince === undefined) {
    const row = asRows(await c.knex('contract_counter').select('total').where('id', 1))[0];
    return row === undefined ? 0 : num(row, 'total');
  }
  const row = asRows(await c.knex('contracts').where('timestamp', '>=', filter.createdSince).count({ n: '*' }))[0];
  return row === undefined ? 0 : num(row, 'n');
}
