/** getWithdrawalTotals: the one row of withdrawal_totals (kept by the sink, migration 007). */
import type { WithdrawalTotals } from '../../../lib/ports.ts';
import { asRows, big, num } from '../rows.ts';
import type { SqlContext } from './context.ts';

export async function getWithdrawalTotals(c: SqlContext): Promise<WithdrawalTotals> {
  const row = asRows(await c.knex('withdrawal_totals').select('count', 'sum').where('id', 1))[0];
  return row === undefined ? { count: 0n, sum: 0n } : { count: BigInt(num(row, 'count')), sum: big(row, 'sum') };
}
