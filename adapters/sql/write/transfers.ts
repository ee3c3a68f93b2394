/**
 * Token transfers of consensus blocks, one row per (transfer, token id) in token_transfer_ids
 * (the tokenId filter's index), and the ERC-721 owners kept from them (nft_owners: the latest
 * transfer of each (token, id) by block_number, log_index).
 */
import type { Knex } from 'knex';
import type { BlockBundle } from '../../../lib/domain/records.ts';
import type { Dialect } from '../dialect.ts';
import type { WriteRow } from '../rows.ts';
import { transferRow } from '../rows.ts';
import { insertRows, refreshLatest, uniqueKeys, upsertRows } from '../sql.ts';
import type { Key } from './batch.ts';
import { freshCurrentRows, latestSpecs } from './latest.ts';

/** Insert the transfers; returns their token_transfer_ids rows (every key in `affected`). */
export async function insertTransfers(trx: Knex.Transaction, d: Dialect, consensus: readonly BlockBundle[], affected: Key[]): Promise<WriteRow[]> {
  const transfers: WriteRow[] = [];
  const ids: WriteRow[] = [];
  for (const { tokenTransfers } of consensus) {
    for (const r of tokenTransfers) {
      transfers.push(transferRow(d, r));
      for (const id of new Set(r.tokenIds)) {
        const key = d.key(id);
        ids.push({
          token_address: r.tokenAddress,
          token_id: key,
          block_number: r.blockNumber,
          log_index: r.logIndex,
          block_hash: r.blockHash,
          token_type: r.tokenType,
          to_address: r.to,
        });
        affected.push([r.tokenAddress, key]);
      }
    }
  }
  await insertRows(trx, d, 'token_transfers', transfers);
  await insertRows(trx, d, 'token_transfer_ids', ids, 'ON CONFLICT ("token_address", "token_id", "block_number", "log_index") DO NOTHING');
  return ids;
}

/** Recompute the owners of (token, id) keys from the stored transfers. */
export async function refreshOwners(trx: Knex.Transaction, d: Dialect, keys: readonly Key[]): Promise<void> {
  await refreshLatest(trx, d, latestSpecs(d).owners, uniqueKeys(keys));
}

/**
 * The append-only path: owners from the batch's latest transfer per key, by (block_number,
 * log_index); on an exact tie the first row (the insert ignores the repeats).
 */
export async function applyFreshOwners(trx: Knex.Transaction, d: Dialect, transferIds: readonly WriteRow[]): Promise<void> {
  const spec = latestSpecs(d).owners;
  const blockOf = (r: WriteRow) => Number(r.block_number);
  const laterTransfer = (a: WriteRow, b: WriteRow) => blockOf(a) > blockOf(b) || (blockOf(a) === blockOf(b) && Number(a.log_index) > Number(b.log_index));
  await upsertRows(trx, d, 'nft_owners', spec.key, freshCurrentRows(spec, transferIds, laterTransfer));
}
