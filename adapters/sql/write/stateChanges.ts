/** The state changes of consensus blocks' transactions. */
import type { Knex } from 'knex';
import type { BlockBundle } from '../../../lib/domain/records.ts';
import type { Dialect } from '../dialect.ts';
import { stateChangeRow } from '../rows.ts';
import { insertRows } from '../sql.ts';

export async function insertStateChanges(trx: Knex.Transaction, d: Dialect, consensus: readonly BlockBundle[]): Promise<void> {
  const rows = consensus.flatMap(({ block, stateChanges }) => stateChanges.map((r) => stateChangeRow(d, r, block.number, block.hash)));
  await insertRows(trx, d, 'state_changes', rows);
}
