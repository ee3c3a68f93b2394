/**
 * The coin supply kept in chain_counters (adapters/sql/supply.ts): Σ of the positive current
 * coin balances (`coin_supply`) and the zero address's current balance (`zero_balance`),
 * both wei. A store written before this migration is counted once from address_counters.
 */
import type { Knex } from 'knex';
import { dialectOf } from '../dialect.ts';
import { recountSupply } from '../supply.ts';

export const name = '014_coin_supply';

export async function up(knex: Knex): Promise<void> {
  const d = dialectOf(knex);
  await knex.schema.alterTable('chain_counters', (t) => {
    d.bigColumn(t, 'coin_supply').notNullable().defaultTo('0');
    d.bigColumn(t, 'zero_balance').notNullable().defaultTo('0');
  });
  await recountSupply(knex, d);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('chain_counters', (t) => {
    t.dropColumn('coin_supply');
    t.dropColumn('zero_balance');
  });
}
