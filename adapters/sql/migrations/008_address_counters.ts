/**
 * address_counters: what the sink keeps per address (adapters/sql/counters.ts) — the raw
 * counter parts (transactions sent or received once each, received, token transfers, gas of
 * outgoing and incoming transactions, blocks mined), the effective transactions count (a
 * contract's received ones, else sent or received: it depends on the address's current
 * contract status), and the current coin balance (the latest consensus coin balance record).
 * `listed` marks a positive balance: the top-accounts rows. Every listAccounts order has its
 * index (listed first), so a page is index range scans from the cursor. A store written
 * before this migration is counted once, from its rows.
 */
import type { Knex } from 'knex';
import { recountAll } from '../counters.ts';
import { dialectOf } from '../dialect.ts';

export const name = '008_address_counters';

const INDEXES: readonly (readonly [name: string, columns: string])[] = [
  // balance desc: (balance DESC, address ASC); asc: (balance ASC, address ASC)
  ['accounts_balance_desc', 'listed, balance DESC, address'],
  ['accounts_balance_asc', 'listed, balance, address'],
  // transactions count desc / asc, then (balance DESC, address ASC)
  ['accounts_txs_desc', 'listed, transactions_count DESC, balance DESC, address'],
  ['accounts_txs_asc', 'listed, transactions_count, balance DESC, address'],
];

export async function up(knex: Knex): Promise<void> {
  const d = dialectOf(knex);
  await knex.schema.createTable('address_counters', (t) => {
    t.text('address').primary();
    t.bigInteger('tx_any').notNullable();
    t.bigInteger('tx_to').notNullable();
    t.bigInteger('transfers').notNullable();
    d.bigColumn(t, 'gas_in').notNullable();
    d.bigColumn(t, 'gas_out').notNullable();
    t.bigInteger('validations').notNullable();
    t.bigInteger('transactions_count').notNullable();
    d.keyColumn(t, 'balance');
    t.bigInteger('balance_block');
    t.boolean('listed').notNullable();
  });
  for (const [index, columns] of INDEXES) await knex.raw(`CREATE INDEX ${index} ON address_counters (${columns})`);
  // a store written before this migration: count what it holds
  await recountAll(knex, d);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('address_counters');
}
