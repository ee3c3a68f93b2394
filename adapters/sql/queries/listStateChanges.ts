/** listStateChanges: one transaction's changes by ordinal. */
import type { Hash, StateChangeRecord } from '../../../lib/domain/records.ts';
import { asRows, toStateChange } from '../rows.ts';
import type { SqlContext } from './context.ts';

export async function listStateChanges(c: SqlContext, transactionHash: Hash): Promise<readonly StateChangeRecord[]> {
  const { knex } = c;
  const rows = await knex('state_changes').where('transaction_hash', transactionHash).orderBy('ordinal', 'asc');
  return asRows(rows).map(toStateChange);
}
