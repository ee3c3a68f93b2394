/** getTransactionTrace: one transaction's callTracer frames by index (a bounded, per-transaction list). */
import type { Hash, TraceFrameRecord } from '../../../lib/domain/records.ts';
import { asRows, toTraceFrame } from '../rows.ts';
import type { SqlContext } from './context.ts';

export async function getTransactionTrace(c: SqlContext, transactionHash: Hash): Promise<readonly TraceFrameRecord[]> {
  const rows = await c.knex('trace_frames').where('transaction_hash', transactionHash).orderBy('frame_index', 'asc');
  return asRows(rows).map(toTraceFrame);
}
