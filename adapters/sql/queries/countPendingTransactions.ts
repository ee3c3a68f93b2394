/** countPendingTransactions: the mempool rows, optionally those seen since an instant (index pending_list). */
import type { PendingTransactionFilter } from '../../../lib/ports.ts';
import { asRows, num } from '../rows.ts';
import type { SqlContext } from './context.ts';

export async function countPendingTransactions(c: SqlContext, filter: PendingTransactionFilter): Promise<number> {
  const q = c.knex('pending_transactions').count({ n: '*' });
  if (filter.insertedSince !== undefined) q.where('inserted_at', '>=', filter.insertedSince);
  const r = asRows(await q)[0];
  return r === undefined ? 0 : num(r, 'n');
}
