/** getHighestBlockNumber: the highest consensus block. */
import { num } from '../rows.ts';
import type { SqlContext } from './context.ts';

export async function getHighestBlockNumber(c: SqlContext): Promise<number | null> {
  // a fixed text: no query builder on every page that shows confirmations
  const r = (await c.raw('select max("number") as m from blocks where consensus = ?', [true]))[0];
  return r === undefined || r.m === null ? null : num(r, 'm');
}
