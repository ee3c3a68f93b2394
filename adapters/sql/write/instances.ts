/** Token instance history (the last record per (token, id) of each consensus block) and the current instances (the latest history row). */
import type { Knex } from 'knex';
import type { BlockBundle } from '../../../lib/domain/records.ts';
import type { Dialect } from '../dialect.ts';
import type { WriteRow } from '../rows.ts';
import { insertRows, lastPerKey, refreshLatest, uniqueKeys, upsertRows } from '../sql.ts';
import type { Key } from './batch.ts';
import { freshCurrentRows, latestSpecs } from './latest.ts';

/** Insert the instance history rows; returns them (every key in `affected`). */
export async function insertInstanceHistory(trx: Knex.Transaction, d: Dialect, consensus: readonly BlockBundle[], affected: Key[]): Promise<WriteRow[]> {
  const rows: WriteRow[] = [];
  for (const { block, tokenInstances } of consensus) {
    for (const i of lastPerKey(tokenInstances, (i) => `${i.tokenAddress}|${i.tokenId}`)) {
      const id = d.key(i.tokenId);
      rows.push({
        block_number: i.blockNumber,
        block_hash: block.hash,
        token_address: i.tokenAddress,
        token_id: id,
        token_type: i.tokenType,
        metadata: i.metadata === null ? null : JSON.stringify(i.metadata),
      });
      affected.push([i.tokenAddress, id]);
    }
  }
  await insertRows(trx, d, 'token_instance_history', rows);
  return rows;
}

/** Recompute the current instances of `keys` from history. */
export async function refreshInstances(trx: Knex.Transaction, d: Dialect, keys: readonly Key[]): Promise<void> {
  await refreshLatest(trx, d, latestSpecs(d).instances, uniqueKeys(keys));
}

/** The append-only path: the current instances from the batch's latest history row per (token, id). */
export async function applyFreshInstances(trx: Knex.Transaction, d: Dialect, rows: readonly WriteRow[]): Promise<void> {
  const spec = latestSpecs(d).instances;
  await upsertRows(trx, d, 'token_instances', spec.key, freshCurrentRows(spec, rows));
}
