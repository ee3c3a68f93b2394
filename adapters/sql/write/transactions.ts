/**
 * The transactions of stored blocks (consensus or not; a hash may sit in several blocks), the
 * validated transactions by kind (transaction_kinds), and the pending ones: a pending row mined
 * in a consensus block gives its place (and what it counted) to the mined row.
 */
import type { Knex } from 'knex';
import type { BlockBundle, Hash, TransactionRecord } from '../../../lib/domain/records.ts';
import type { Dialect } from '../dialect.ts';
import type { WriteRow } from '../rows.ts';
import { asRows, kindCode, str, transactionRow } from '../rows.ts';
import { KEY_CHUNK, chunks, insertRows } from '../sql.ts';
import type { CounterDeltas } from './counters.ts';
import { countPending, removePending } from './counters.ts';

/**
 * Insert the transactions of new blocks; those of consensus blocks leave the pending table and
 * are listed by kind. Returns the hashes of the pending rows mined.
 */
export async function insertTransactions(trx: Knex.Transaction, d: Dialect, bundles: readonly BlockBundle[], counters: CounterDeltas): Promise<Hash[]> {
  const rows: WriteRow[] = [];
  const mined: Hash[] = [];
  const kinds: WriteRow[] = [];
  for (const { block, transactions } of bundles) {
    for (const t of transactions) {
      const row = transactionRow(d, t);
      row.consensus = block.consensus;
      rows.push(row);
    }
    if (!block.consensus) continue;
    for (const t of transactions) {
      mined.push(t.hash);
      for (const k of new Set(t.kinds)) {
        kinds.push({ kind: kindCode(k), block_number: block.number, tx_index: t.index, block_hash: block.hash });
      }
    }
  }
  await insertRows(trx, d, 'transactions', rows);
  const minedPending = (await removePending(trx, d, mined, counters)).map((r) => r.hash);
  await insertRows(trx, d, 'transaction_kinds', kinds);
  return minedPending;
}

/**
 * Insert pending transactions (the first of each hash) that are neither pending already nor
 * mined in a consensus block, counting them into `counters`; false when none is new.
 */
export async function insertPending(trx: Knex.Transaction, d: Dialect, firsts: ReadonlyMap<Hash, TransactionRecord>, counters: CounterDeltas): Promise<boolean> {
  const skip = new Set<string>();
  for (const part of chunks([...firsts.keys()], KEY_CHUNK)) {
    for (const r of asRows(await trx('pending_transactions').select('hash').whereIn('hash', part))) skip.add(str(r, 'hash'));
    const mined = asRows(await trx('transactions').select('hash').whereIn('hash', part).andWhere('consensus', true));
    for (const r of mined) skip.add(str(r, 'hash'));
  }
  const fresh = [...firsts.values()].filter((t) => !skip.has(t.hash));
  if (fresh.length === 0) return false;
  await insertRows(
    trx,
    d,
    'pending_transactions',
    fresh.map((t) => transactionRow(d, t)),
  );
  countPending(fresh, counters);
  return true;
}
