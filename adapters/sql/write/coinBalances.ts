/**
 * The coin balance history of consensus blocks (the last record per address of each block);
 * the current balance lives in address_counters (./counters.ts).
 */
import type { Knex } from 'knex';
import type { BlockBundle } from '../../../lib/domain/records.ts';
import type { Dialect } from '../dialect.ts';
import type { WriteRow } from '../rows.ts';
import { insertRows, lastPerKey } from '../sql.ts';

export async function insertCoinBalances(trx: Knex.Transaction, d: Dialect, consensus: readonly BlockBundle[]): Promise<void> {
  const rows: WriteRow[] = [];
  for (const { block, coinBalances } of consensus) {
    for (const c of lastPerKey(coinBalances, (c) => c.address)) {
      rows.push({ block_number: c.blockNumber, block_hash: block.hash, address: c.address, value: d.big(c.value) });
    }
  }
  await insertRows(trx, d, 'coin_balances', rows);
}
