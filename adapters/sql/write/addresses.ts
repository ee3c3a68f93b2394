/** Address history (the last record per address of each consensus block) and the current addresses (the latest history row). */
import type { Knex } from 'knex';
import type { BlockBundle } from '../../../lib/domain/records.ts';
import type { Dialect } from '../dialect.ts';
import type { WriteRow } from '../rows.ts';
import { insertRows, lastPerKey, refreshLatest, uniqueKeys, upsertRows } from '../sql.ts';
import type { Key } from './batch.ts';
import { freshCurrentRows, latestSpecs } from './latest.ts';

/** Insert the address history rows; returns them (every key in `affected`). */
export async function insertAddressHistory(trx: Knex.Transaction, d: Dialect, consensus: readonly BlockBundle[], affected: Key[]): Promise<WriteRow[]> {
  const rows: WriteRow[] = [];
  for (const { block, addresses } of consensus) {
    for (const a of lastPerKey(addresses, (a) => a.hash)) {
      rows.push({
        block_number: a.blockNumber,
        block_hash: block.hash,
        hash: a.hash,
        is_contract: a.isContract,
        name: a.name,
        creation_transaction_hash: a.creationTransactionHash,
        creator_address: a.creatorAddress,
      });
      affected.push([a.hash]);
    }
  }
  await insertRows(trx, d, 'address_history', rows);
  return rows;
}

/** Recompute the current addresses of `keys` from history. */
export async function refreshAddresses(trx: Knex.Transaction, d: Dialect, keys: readonly Key[]): Promise<void> {
  await refreshLatest(trx, d, latestSpecs(d).addresses, uniqueKeys(keys));
}

/** The append-only path: the current addresses from the batch's latest history row per address. */
export async function applyFreshAddresses(trx: Knex.Transaction, d: Dialect, rows: readonly WriteRow[]): Promise<void> {
  const spec = latestSpecs(d).addresses;
  await upsertRows(trx, d, 'addresses', spec.key, freshCurrentRows(spec, rows));
}
