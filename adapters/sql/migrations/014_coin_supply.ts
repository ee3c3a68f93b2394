/**
 * The coin supply kept in chain_counters (adapters/sql/write/supply.ts): Σ of the positive current
 * coin balances (`coin_supply`) and the zero address's current balance (`zero_balance`),
 * both wei. A store written before this migration is counted once from address_counters.
 */
import type { Knex } from 'knex';
import type { MigrationDialect } from './frozen/dialect.ts';
import { dialectOf, toBig } from './frozen/dialect.ts';
import { asRows, str } from './frozen/rows.ts';

export const name = '014_coin_supply';

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/** Rows read per step of the recount. */
const STEP = 1000;

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

/** Count the supply from the current balances in address_counters. */
async function recountSupply(knex: Knex, d: MigrationDialect): Promise<void> {
  let supply = 0n;
  let zero = 0n;
  let after = '';
  for (;;) {
    const rows = asRows(
      await knex('address_counters').select('address', 'balance').whereNotNull('balance').andWhere('address', '>', after).orderBy('address').limit(STEP),
    );
    if (rows.length === 0) break;
    for (const r of rows) {
      const value = toBig(r.balance);
      if (value > 0n) supply += value;
      if (str(r, 'address') === ZERO_ADDRESS) zero = value;
    }
    after = str(rows[rows.length - 1] as Record<string, unknown>, 'address');
  }
  await knex('chain_counters').where('id', 1).update({ coin_supply: d.big(supply), zero_balance: d.big(zero) });
}
