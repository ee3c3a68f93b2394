/**
 * sumBlocks: sums over the consensus blocks of a time range — an index range scan of that
 * window's blocks (index blocks_time); the wei sums are added here, exactly.
 */
import type { BlockTotals, TimeRange } from '../../../lib/ports.ts';
import { asRows, big, num } from '../rows.ts';
import type { SqlContext } from './context.ts';

export async function sumBlocks(c: SqlContext, range: TimeRange): Promise<BlockTotals> {
  const rows = asRows(
    await c
      .knex('blocks')
      .select('transactions_count', 'gas_used', 'transaction_fees')
      .where('consensus', true)
      .andWhere('timestamp', '>=', range.from)
      .andWhere('timestamp', '<=', range.to),
  );
  let transactions = 0;
  let gasUsed = 0n;
  let fees = 0n;
  for (const r of rows) {
    transactions += num(r, 'transactions_count');
    gasUsed += big(r, 'gas_used');
    fees += big(r, 'transaction_fees');
  }
  return { blocks: rows.length, transactions, gasUsed, fees };
}
