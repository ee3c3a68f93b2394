/** listDailyStats: the daily aggregates of a date range (primary key range), date DESC. */
import type { DailyStatsRecord, DateRange } from '../../../lib/ports.ts';
import { asRows, big, num, str } from '../rows.ts';
import type { SqlContext } from './context.ts';

export async function listDailyStats(c: SqlContext, range: DateRange): Promise<readonly DailyStatsRecord[]> {
  const rows = asRows(
    await c
      .knex('daily_stats')
      .select('date', 'transactions_count', 'gas_used', 'fee_sum')
      .where('date', '>=', range.from)
      .andWhere('date', '<=', range.to)
      .orderBy('date', 'desc'),
  );
  return rows.map((r) => ({ date: str(r, 'date'), transactionsCount: num(r, 'transactions_count'), gasUsed: big(r, 'gas_used'), feeSum: big(r, 'fee_sum') }));
}
