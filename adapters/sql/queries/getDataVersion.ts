/** getDataVersion: the counter every write bumps. */
import { asRows } from '../rows.ts';
import type { SqlContext } from './context.ts';

export async function getDataVersion(c: SqlContext): Promise<string> {
  const { knex } = c;
  const row = asRows(await knex('data_version').select('version').where('id', 1))[0];
  return row === undefined ? '0' : String(row['version']);
}
