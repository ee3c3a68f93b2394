/** The logs of consensus blocks. */
import type { Knex } from 'knex';
import type { BlockBundle } from '../../../lib/domain/records.ts';
import type { Dialect } from '../dialect.ts';
import { logRow } from '../rows.ts';
import { insertRows } from '../sql.ts';

export async function insertLogs(trx: Knex.Transaction, d: Dialect, consensus: readonly BlockBundle[]): Promise<void> {
  await insertRows(
    trx,
    d,
    'logs',
    consensus.flatMap((b) => b.logs.map(logRow)),
  );
}
