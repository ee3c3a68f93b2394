/** The internal transactions of consensus blocks (the top-level call is stored unlisted). */
import type { Knex } from 'knex';
import type { BlockBundle } from '../../../lib/domain/records.ts';
import { isListedInternal } from '../../../lib/sink/validate.ts';
import type { Dialect } from '../dialect.ts';
import { internalRow } from '../rows.ts';
import { insertRows } from '../sql.ts';

export async function insertInternalTransactions(trx: Knex.Transaction, d: Dialect, consensus: readonly BlockBundle[]): Promise<void> {
  const rows = consensus.flatMap((b) => b.internalTransactions.map((r) => internalRow(d, r, isListedInternal(r))));
  await insertRows(trx, d, 'internal_transactions', rows);
}
