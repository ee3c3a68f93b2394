/** getContracts: created contracts by address, the latest creation of each (batch lookup). */
import type { Address, ContractCodeRecord } from '../../../lib/domain/records.ts';
import { asRows, toContract } from '../rows.ts';
import { KEY_CHUNK, chunks } from '../sql.ts';
import type { SqlContext } from './context.ts';

export async function getContracts(c: SqlContext, addresses: readonly Address[]): Promise<readonly ContractCodeRecord[]> {
  const latest = new Map<Address, ContractCodeRecord>();
  for (const part of chunks([...new Set(addresses)], KEY_CHUNK)) {
    const rows = await c.knex('contracts').whereIn('address', part).orderBy([
      { column: 'address', order: 'asc' },
      { column: 'block_number', order: 'desc' },
    ]);
    for (const r of asRows(rows).map(toContract)) if (!latest.has(r.address)) latest.set(r.address, r);
  }
  return [...latest.values()];
}
