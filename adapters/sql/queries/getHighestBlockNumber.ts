/** getHighestBlockNumber: the highest consensus block. */
import { asRows, num } from '../rows.ts';
import type { SqlContext } from './context.ts';

export async function getHighestBlockNumber(c: SqlContext): Promise<number | null> {
  const { knex } = c;
  const r = asRows(await knex('blocks').where('consensus', true).max({ m: 'number' }))[0];
  return r === undefined || r.m === null ? null : num(r, 'm');
}
