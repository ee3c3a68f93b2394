/**
 * Chain statistics kept by the writer (adapters/sql/write/stats.ts): chain-wide counters, daily
 * aggregates per UTC day, and per-contract daily activity (hot contracts), plus the timestamp
 * indexes that bound the live windows (the last 24 h of blocks, the 5m/1h/3h hot-contract
 * windows of transactions). A store that already holds blocks is backfilled here, by the
 * rules of lib/stats/chainStats.ts as they were when it was written (copied below).
 */
import type { Knex } from 'knex';
import type { MigrationDialect } from './frozen/dialect.ts';
import { dialectOf } from './frozen/dialect.ts';
import type { WriteRow } from './frozen/rows.ts';
import { asRows, big, bigOrNull, num, str, strOrNull } from './frozen/rows.ts';
import { BULK_ROWS, KEY_CHUNK, chunks, keyRows, upsertRows } from './frozen/sql.ts';

export const name = '009_chain_stats';

const INDEXES: readonly (readonly [name: string, table: string, columns: string])[] = [
  // sumBlocks: consensus blocks by time
  ['blocks_time', 'blocks', 'consensus, timestamp'],
  // listContractActivity over a time window: consensus transactions by time
  ['transactions_time', 'transactions', 'consensus, timestamp'],
];

/** Blocks read per backfill step. */
const BACKFILL_STEP = 500;

export async function up(knex: Knex): Promise<void> {
  const d = dialectOf(knex);
  await knex.schema.createTable('chain_counters', (t) => {
    t.integer('id').primary();
    t.bigInteger('blocks').notNullable();
    t.bigInteger('transactions').notNullable();
    t.bigInteger('addresses').notNullable();
    d.bigColumn(t, 'gas_used').notNullable();
  });
  await knex.schema.createTable('daily_stats', (t) => {
    t.text('date').primary();
    t.bigInteger('blocks').notNullable();
    t.bigInteger('transactions_count').notNullable();
    d.bigColumn(t, 'gas_used').notNullable();
    d.bigColumn(t, 'fee_sum').notNullable();
  });
  await knex.schema.createTable('contract_daily_stats', (t) => {
    t.text('date').notNullable();
    t.text('contract').notNullable();
    t.bigInteger('transactions_count').notNullable();
    d.bigColumn(t, 'gas_used').notNullable();
    t.primary(['date', 'contract']);
  });
  for (const [index, table, columns] of INDEXES) await knex.raw(`CREATE INDEX ${index} ON ${table} (${columns})`);
  await knex('chain_counters').insert({ id: 1, blocks: 0, transactions: 0, addresses: 0, gas_used: d.big(0n) });

  // backfill from the stored consensus blocks, in number order
  let after = -1;
  for (;;) {
    const rows = asRows(
      await knex('blocks').select('hash', 'number').where('consensus', true).andWhere('number', '>', after).orderBy('number').limit(BACKFILL_STEP),
    );
    if (rows.length === 0) break;
    const delta = await storedBlocksDelta(knex, rows.map((r) => str(r, 'hash')));
    await addStats(knex, d, delta);
    after = num(rows[rows.length - 1] as Record<string, unknown>, 'number');
  }
  const addresses = asRows(await knex('coin_balances').countDistinct({ n: 'address' }))[0];
  await knex('chain_counters').where('id', 1).update({ addresses: addresses === undefined ? 0 : num(addresses, 'n') });
}

export async function down(knex: Knex): Promise<void> {
  for (const [index] of INDEXES) await knex.raw(`DROP INDEX ${index}`);
  for (const table of ['contract_daily_stats', 'daily_stats', 'chain_counters']) await knex.schema.dropTable(table);
}

const DAY_SECONDS = 86_400;

/** The UTC day (YYYY-MM-DD) of a unix timestamp in seconds. */
function dayOf(timestamp: number): string {
  return new Date(Math.floor(timestamp / DAY_SECONDS) * DAY_SECONDS * 1000).toISOString().slice(0, 10);
}

interface DayDelta {
  blocks: number;
  transactionsCount: number;
  gasUsed: bigint;
  feeSum: bigint;
}
interface ContractDayDelta {
  readonly date: string;
  readonly contract: string;
  transactionsCount: number;
  gasUsed: bigint;
}

/** What a run of consensus blocks adds to the statistics. */
class StatsDelta {
  blocks = 0;
  transactions = 0;
  gasUsed = 0n;
  readonly days = new Map<string, DayDelta>();
  /** keyed `${date}|${contract}` */
  readonly contractDays = new Map<string, ContractDayDelta>();

  /**
   * Add one consensus block and its transactions: every transaction with a `to` counts
   * towards that address's day.
   */
  addBlock(
    block: { timestamp: number; gasUsed: bigint; transactionsCount: number; transactionFees: bigint },
    transactions: readonly { to: string | null; gasUsed: bigint | null }[],
  ): void {
    this.blocks += 1;
    this.transactions += block.transactionsCount;
    this.gasUsed += block.gasUsed;
    const date = dayOf(block.timestamp);
    const day = this.days.get(date) ?? { blocks: 0, transactionsCount: 0, gasUsed: 0n, feeSum: 0n };
    day.blocks += 1;
    day.transactionsCount += block.transactionsCount;
    day.gasUsed += block.gasUsed;
    day.feeSum += block.transactionFees;
    this.days.set(date, day);
    for (const t of transactions) {
      if (t.to === null) continue;
      const key = `${date}|${t.to}`;
      const entry = this.contractDays.get(key) ?? { date, contract: t.to, transactionsCount: 0, gasUsed: 0n };
      entry.transactionsCount += 1;
      entry.gasUsed += t.gasUsed ?? 0n;
      this.contractDays.set(key, entry);
    }
  }
}

/** The contribution of stored consensus blocks (by hash). */
async function storedBlocksDelta(knex: Knex, hashes: readonly string[]): Promise<StatsDelta> {
  const delta = new StatsDelta();
  for (const part of chunks(hashes, KEY_CHUNK)) {
    const blocks = asRows(
      await knex('blocks').select('hash', 'timestamp', 'gas_used', 'transactions_count', 'transaction_fees').whereIn('hash', part).andWhere('consensus', true),
    );
    if (blocks.length === 0) continue;
    const txs = asRows(
      await knex('transactions')
        .select('block_hash', 'to_address', 'gas_used')
        .whereIn(
          'block_hash',
          blocks.map((b) => str(b, 'hash')),
        ),
    );
    const byBlock = new Map<string, { to: string | null; gasUsed: bigint | null }[]>();
    for (const t of txs) {
      const list = byBlock.get(str(t, 'block_hash')) ?? [];
      list.push({ to: strOrNull(t, 'to_address'), gasUsed: bigOrNull(t, 'gas_used') });
      byBlock.set(str(t, 'block_hash'), list);
    }
    for (const b of blocks) {
      const facts = {
        timestamp: num(b, 'timestamp'),
        gasUsed: big(b, 'gas_used'),
        transactionsCount: num(b, 'transactions_count'),
        transactionFees: big(b, 'transaction_fees'),
      };
      delta.addBlock(facts, byBlock.get(str(b, 'hash')) ?? []);
    }
  }
  return delta;
}

/** Add a delta to the stored statistics (its sums are added in JS: SQLite keeps them as decimal TEXT). */
async function addStats(knex: Knex, d: MigrationDialect, delta: StatsDelta): Promise<void> {
  if (delta.blocks === 0) return;
  const counters = asRows(await knex('chain_counters').select('*').where('id', 1))[0];
  const gasUsed = (counters === undefined ? 0n : big(counters, 'gas_used')) + delta.gasUsed;
  await knex('chain_counters')
    .insert({
      id: 1,
      blocks: (counters === undefined ? 0 : num(counters, 'blocks')) + delta.blocks,
      transactions: (counters === undefined ? 0 : num(counters, 'transactions')) + delta.transactions,
      addresses: counters === undefined ? 0 : num(counters, 'addresses'),
      gas_used: d.big(gasUsed),
    })
    .onConflict('id')
    .merge();

  const dates = [...delta.days.keys()];
  const storedDays = new Map<string, Record<string, unknown>>();
  for (const part of chunks(dates, KEY_CHUNK)) {
    for (const r of asRows(await knex('daily_stats').select('*').whereIn('date', part))) storedDays.set(str(r, 'date'), r);
  }
  for (const [date, dd] of delta.days) {
    const r = storedDays.get(date);
    await knex('daily_stats')
      .insert({
        date,
        blocks: (r === undefined ? 0 : num(r, 'blocks')) + dd.blocks,
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
        await knex.raw(
          `SELECT s.* FROM ${listed.sql} k CROSS JOIN contract_daily_stats s WHERE s."date" = k."date" AND s."contract" = k."contract"`,
          [...listed.bindings],
        ),
      ),
    );
    for (const r of rows) storedContracts.set(`${str(r, 'date')}|${str(r, 'contract')}`, r);
  }
  const upserts: WriteRow[] = [];
  for (const [key, c] of delta.contractDays) {
    const r = storedContracts.get(key);
    upserts.push({
      date: c.date,
      contract: c.contract,
      transactions_count: (r === undefined ? 0 : num(r, 'transactions_count')) + c.transactionsCount,
      gas_used: d.big((r === undefined ? 0n : big(r, 'gas_used')) + c.gasUsed),
    });
  }
  await upsertRows(knex, d, 'contract_daily_stats', ['date', 'contract'], upserts);
}
