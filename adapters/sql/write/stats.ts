/**
 * The SQL store's chain statistics (migration 009): `chain_counters` (one row),
 * `daily_stats` (per UTC day) and `contract_daily_stats` (per day and `to` address), moved
 * inside the write's transaction by each consensus block's contribution
 * (lib/stats/chainStats.ts): added for the blocks a write inserts, taken back — read from the
 * stored rows before they go — for the blocks it removes (replacement, rollbackAbove). A block
 * already stored is skipped by the writer, so a re-write moves nothing.
 *
 * Big sums are added in JS (bigint) and written back: SQLite keeps them as decimal TEXT.
 * The address counter is the number of distinct addresses with a coin balance row: the
 * writer counts the touched addresses that have one before and after its changes.
 */
import type { Knex } from 'knex';
import type { Address, BlockBundle, Hash } from '../../../lib/domain/records.ts';
import { StatsDelta } from '../../../lib/stats/chainStats.ts';
import type { Dialect } from '../dialect.ts';
import type { WriteRow } from '../rows.ts';
import { asRows, big, bigOrNull, num, str, addressOrNull } from '../rows.ts';
import { BULK_ROWS, KEY_CHUNK, chunks, keyCondition, keyRows, upsertRows } from '../sql.ts';

type Db = Knex | Knex.Transaction;

/** The contribution of stored consensus blocks (by hash; others are ignored), with `sign`. */
export async function storedBlocksDelta(db: Db, hashes: readonly Hash[], sign: 1 | -1, delta = new StatsDelta()): Promise<StatsDelta> {
  for (const part of chunks(hashes, KEY_CHUNK)) {
    const blocks = asRows(
      await db('blocks').select('hash', 'timestamp', 'gas_used', 'transactions_count', 'transaction_fees').whereIn('hash', part).andWhere('consensus', true),
    );
    if (blocks.length === 0) continue;
    const txs = asRows(
      await db('transactions')
        .select('block_hash', 'to_address', 'gas_used')
        .whereIn(
          'block_hash',
          blocks.map((b) => str(b, 'hash')),
        ),
    );
    const byBlock = new Map<string, { to: Address | null; gasUsed: bigint | null }[]>();
    for (const t of txs) {
      const list = byBlock.get(str(t, 'block_hash')) ?? [];
      list.push({ to: addressOrNull(t, 'to_address'), gasUsed: bigOrNull(t, 'gas_used') });
      byBlock.set(str(t, 'block_hash'), list);
    }
    for (const b of blocks) {
      const facts = {
        timestamp: num(b, 'timestamp'),
        gasUsed: big(b, 'gas_used'),
        transactionsCount: num(b, 'transactions_count'),
        transactionFees: big(b, 'transaction_fees'),
      };
      delta.addBlock(facts, byBlock.get(str(b, 'hash')) ?? [], sign);
    }
  }
  return delta;
}

/** How many of `addresses` have a coin balance row. */
export async function addressesWithCoinBalance(db: Db, d: Dialect, addresses: ReadonlySet<string>): Promise<number> {
  let n = 0;
  for (const part of chunks([...addresses], BULK_ROWS)) {
    const keys = keyRows(d, 'coin_balances', ['address'], part.map((a) => [a]));
    // an index seek per address (coin_balances_latest): does it have a row
    const rows = await db.raw(`SELECT COUNT(*) AS "n" FROM ${keys.sql} k WHERE EXISTS (SELECT 1 FROM coin_balances c WHERE c."address" = k."address")`, [...keys.bindings]);
    n += num(asRows(d.rawRows(rows))[0] ?? { n: 0 }, 'n');
  }
  return n;
}

/** The addresses of the coin balance rows of stored blocks. */
export async function coinBalanceAddresses(db: Db, hashes: readonly Hash[], into: Set<string>): Promise<void> {
  for (const part of chunks(hashes, KEY_CHUNK)) {
    for (const r of asRows(await db('coin_balances').distinct('address').whereIn('block_hash', part))) into.add(str(r, 'address'));
  }
}

/** Apply a delta (and a change in the address count) to the stored statistics. */
export async function applyStatsDelta(db: Db, d: Dialect, delta: StatsDelta, addresses: number): Promise<void> {
  if (delta.isEmpty && addresses === 0) return;
  const counters = asRows(await db('chain_counters').select('*').where('id', 1))[0];
  const gasUsed = (counters === undefined ? 0n : big(counters, 'gas_used')) + delta.gasUsed;
  await db('chain_counters')
    .insert({
      id: 1,
      blocks: (counters === undefined ? 0 : num(counters, 'blocks')) + delta.blocks,
      transactions: (counters === undefined ? 0 : num(counters, 'transactions')) + delta.transactions,
      addresses: (counters === undefined ? 0 : num(counters, 'addresses')) + addresses,
      gas_used: d.big(gasUsed),
    })
    .onConflict('id')
    .merge();

  const dates = [...delta.days.keys()];
  const storedDays = new Map<string, Record<string, unknown>>();
  for (const part of chunks(dates, KEY_CHUNK)) {
    for (const r of asRows(await db('daily_stats').select('*').whereIn('date', part))) storedDays.set(str(r, 'date'), r);
  }
  for (const [date, dd] of delta.days) {
    const r = storedDays.get(date);
    const blocks = (r === undefined ? 0 : num(r, 'blocks')) + dd.blocks;
    if (blocks === 0) {
      await db('daily_stats').where('date', date).delete();
      continue;
    }
    await db('daily_stats')
      .insert({
        date,
        blocks,
        transactions_count: (r === undefined ? 0 : num(r, 'transactions_count')) + dd.transactionsCount,
        gas_used: d.big((r === undefined ? 0n : big(r, 'gas_used')) + dd.gasUsed),
        fee_sum: d.big((r === undefined ? 0n : big(r, 'fee_sum')) + dd.feeSum),
      })
      .onConflict('date')
      .merge();
  }

  const keys = [...delta.contractDays.values()].map((c) => [c.date, c.contract] as const);
  const storedContracts = new Map<string, Record<string, unknown>>();
  for (const part of chunks(keys, BULK_ROWS)) {
    const listed = keyRows(d, 'contract_daily_stats', ['date', 'contract'], part);
    const rows = asRows(
      d.rawRows(
        await db.raw(
          `SELECT s.* FROM ${listed.sql} k CROSS JOIN contract_daily_stats s WHERE s."date" = k."date" AND s."contract" = k."contract"`,
          [...listed.bindings],
        ),
      ),
    );
    for (const r of rows) storedContracts.set(`${str(r, 'date')}|${str(r, 'contract')}`, r);
  }
  const upserts: WriteRow[] = [];
  const deletes: (readonly [string, string])[] = [];
  for (const [key, c] of delta.contractDays) {
    const r = storedContracts.get(key);
    const count = (r === undefined ? 0 : num(r, 'transactions_count')) + c.transactionsCount;
    if (count === 0) deletes.push([c.date, c.contract]);
    else upserts.push({ date: c.date, contract: c.contract, transactions_count: count, gas_used: d.big((r === undefined ? 0n : big(r, 'gas_used')) + c.gasUsed) });
  }
  for (const part of chunks(deletes, KEY_CHUNK)) {
    const cond = keyCondition(d, ['date', 'contract'], part);
    await db.raw(`DELETE FROM contract_daily_stats WHERE ${cond.sql}`, [...cond.bindings]);
  }
  await upsertRows(db, d, 'contract_daily_stats', ['date', 'contract'], upserts);
}

/**
 * The writer's hook: call before a write removes `removed` (stored blocks) and inserts
 * `inserted`, then `finish()` after both, inside the same transaction.
 */
export async function beginStatsWrite(
  db: Db,
  d: Dialect,
  removed: readonly Hash[],
  inserted: readonly BlockBundle[],
): Promise<{ finish(): Promise<void> }> {
  const touched = new Set<string>();
  await coinBalanceAddresses(db, removed, touched);
  const consensus = inserted.filter((b) => b.block.consensus);
  for (const b of consensus) for (const c of b.coinBalances) touched.add(c.address);
  const before = await addressesWithCoinBalance(db, d, touched);
  const delta = await storedBlocksDelta(db, removed, -1);
  for (const b of consensus) delta.addBlock(b.block, b.transactions, 1);
  return {
    async finish() {
      // nothing removed: every touched address now has a row (one query saved per append)
      const after = removed.length === 0 ? touched.size : await addressesWithCoinBalance(db, d, touched);
      await applyStatsDelta(db, d, delta, after - before);
    },
  };
}
