/**
 * The withdrawal rows of the SQL sink (migration 007): inserted with their consensus block,
 * deleted with it, and the one-row totals (count, Σ amount) moved by the same transaction.
 */
import type { Knex } from 'knex';
import type { BlockBundle, Hash } from '../../../lib/domain/records.ts';
import type { Dialect } from '../dialect.ts';
import type { WriteRow } from '../rows.ts';
import { asRows, big } from '../rows.ts';
import { KEY_CHUNK, chunks, insertRows } from '../sql.ts';

export function withdrawalRows(d: Dialect, bundle: BlockBundle): WriteRow[] {
  return (bundle.withdrawals ?? []).map((w) => ({
    withdrawal_index: w.index,
    validator_index: w.validatorIndex,
    address: w.address,
    amount: d.big(w.amount),
    block_number: w.blockNumber,
    block_hash: w.blockHash,
    timestamp: w.timestamp,
  }));
}

/** Move the totals by (count, sum); the UPDATE of the count takes the row's lock first. */
async function addTotals(trx: Knex.Transaction, d: Dialect, count: number, sum: bigint): Promise<void> {
  if (count === 0 && sum === 0n) return;
  await trx('withdrawal_totals').where('id', 1).increment('count', count);
  const row = asRows(await trx('withdrawal_totals').select('sum').where('id', 1))[0];
  const before = row === undefined ? 0n : big(row, 'sum');
  await trx('withdrawal_totals').where('id', 1).update({ sum: d.big(before + sum) });
}

export async function insertWithdrawals(trx: Knex.Transaction, d: Dialect, rows: readonly WriteRow[]): Promise<void> {
  if (rows.length === 0) return;
  await insertRows(trx, d, 'withdrawals', rows);
  let sum = 0n;
  for (const r of rows) sum += BigInt(String(r.amount));
  await addTotals(trx, d, rows.length, sum);
}

/** Delete the withdrawals of blocks (before the blocks go), taking them off the totals. */
export async function removeWithdrawals(trx: Knex.Transaction, d: Dialect, hashes: readonly Hash[]): Promise<void> {
  let count = 0;
  let sum = 0n;
  for (const part of chunks(hashes, KEY_CHUNK)) {
    const rows = asRows(await trx('withdrawals').select('amount').whereIn('block_hash', part));
    if (rows.length === 0) continue;
    count += rows.length;
    for (const r of rows) sum += big(r, 'amount');
    await trx('withdrawals').whereIn('block_hash', part).delete();
  }
  await addTotals(trx, d, -count, -sum);
}
