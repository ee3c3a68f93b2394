/**
 * Deleting blocks (a replaced consensus block, rollbackAbove) with every row they brought,
 * after recording the keys whose current values change and taking back what they counted.
 */
import type { Knex } from 'knex';
import type { Hash } from '../../../lib/domain/records.ts';
import type { Dialect } from '../dialect.ts';
import { asRows, str } from '../rows.ts';
import { KEY_CHUNK, chunks } from '../sql.ts';
import type { Affected, Key } from './batch.ts';
import { uncountContracts } from './contracts.ts';
import { countRemovedBlocks } from './counters.ts';
import { uncountBlocksParties } from './userOperationParties.ts';
import { removeWithdrawals } from './withdrawals.ts';

/** Every table holding rows of a block, with its block-hash column. */
const BLOCK_ROWS: readonly (readonly [string, string])[] = [
  ['transactions', 'block_hash'],
  ['transaction_kinds', 'block_hash'],
  ['internal_transactions', 'block_hash'],
  ['logs', 'block_hash'],
  ['token_transfers', 'block_hash'],
  ['token_transfer_ids', 'block_hash'],
  ['state_changes', 'block_hash'],
  ['token_history', 'block_hash'],
  ['address_history', 'block_hash'],
  ['token_balance_history', 'block_hash'],
  ['coin_balances', 'block_hash'],
  ['token_instance_history', 'block_hash'],
  ['contracts', 'block_hash'],
  ['trace_frames', 'block_hash'],
  ['proxy_implementations', 'block_hash'],
  ['user_operations', 'block_hash'],
  ['blocks', 'hash'],
];

/** The distinct keys (`columns`) of a history table's rows of these blocks. */
async function selectKeys(trx: Knex.Transaction, table: string, columns: readonly string[], hashes: readonly Hash[]): Promise<Key[]> {
  const out: Key[] = [];
  for (const part of chunks(hashes, KEY_CHUNK)) {
    const rows = asRows(await trx(table).distinct(...columns).whereIn('block_hash', part));
    for (const r of rows) out.push(columns.map((c) => str(r, c)));
  }
  return out;
}

/** Delete blocks and every row they brought; record the keys whose current values change. */
export async function removeBlocks(trx: Knex.Transaction, d: Dialect, hashes: readonly Hash[], affected: Affected): Promise<void> {
  if (hashes.length === 0) return;
  affected.balances.push(...(await selectKeys(trx, 'token_balance_history', ['holder', 'token_address', 'token_id'], hashes)));
  affected.tokens.push(...(await selectKeys(trx, 'token_history', ['address'], hashes)));
  affected.addresses.push(...(await selectKeys(trx, 'address_history', ['hash'], hashes)));
  affected.instances.push(...(await selectKeys(trx, 'token_instance_history', ['token_address', 'token_id'], hashes)));
  affected.transferIds.push(...(await selectKeys(trx, 'token_transfer_ids', ['token_address', 'token_id'], hashes)));
  affected.proxies.push(...(await selectKeys(trx, 'proxy_implementations', ['proxy'], hashes)));
  await removeWithdrawals(trx, d, hashes);
  await countRemovedBlocks(trx, hashes, affected.counters);
  await uncountContracts(trx, hashes);
  await uncountBlocksParties(trx, hashes);
  for (const part of chunks(hashes, KEY_CHUNK)) {
    for (const [table, column] of BLOCK_ROWS) await trx(table).whereIn(column, part).delete();
  }
}
