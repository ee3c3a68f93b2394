/**
 * Chain statistics kept by the writer (adapters/sql/stats.ts): chain-wide counters, daily
 * aggregates per UTC day, and per-contract daily activity (hot contracts), plus the timestamp
 * indexes that bound the live windows (the last 24 h of blocks, the 5m/1h/3h hot-contract
 * windows of transactions). A store that already holds blocks is backfilled here.
 */
import type { Knex } from 'knex';
import type { Hash } from '../../../lib/domain/records.ts';
import { dialectOf } from '../dialect.ts';
import { asRows, num, str } from '../rows.ts';
import { applyStatsDelta, storedBlocksDelta } from '../stats.ts';

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
    const delta = await storedBlocksDelta(knex, rows.map((r) => str(r, 'hash') as Hash), 1);
    await applyStatsDelta(knex, d, delta, 0);
    after = num(rows[rows.length - 1] as Record<string, unknown>, 'number');
  }
  const addresses = asRows(await knex('coin_balances').countDistinct({ n: 'address' }))[0];
  await knex('chain_counters').where('id', 1).update({ addresses: addresses === undefined ? 0 : num(addresses, 'n') });
}

export async function down(knex: Knex): Promise<void> {
  for (const [index] of INDEXES) await knex.raw(`DROP INDEX ${index}`);
  for (const table of ['contract_daily_stats', 'daily_stats', 'chain_counters']) await knex.schema.dropTable(table);
}
