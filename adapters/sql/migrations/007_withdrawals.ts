/**
 * Beacon-chain withdrawals (listWithdrawals) and their running totals (getWithdrawalTotals).
 *
 * Rows of consensus blocks only, as every list. Indexes, one per filter shape, each its
 * equality prefix followed by the list's order (withdrawal_index DESC, block_number DESC):
 * - withdrawals_list: no filter;
 * - withdrawals_address: address = ?;
 * - withdrawals_block: block_number = ? (one block; a wider range reads this index's range);
 * - withdrawals_key (block_hash, withdrawal_index): idempotence and rollback by block.
 * withdrawal_totals holds one row: the count and Σ amount, moved by every write and rollback,
 * so /withdrawals/counters reads one row whatever the chain's length.
 */
import type { Knex } from 'knex';
import { dialectOf } from './frozen/dialect.ts';

export const name = '007_withdrawals';

const INDEXES: readonly (readonly [name: string, table: string, columns: string])[] = [
  ['withdrawals_list', 'withdrawals', 'withdrawal_index DESC, block_number DESC'],
  ['withdrawals_address', 'withdrawals', 'address, withdrawal_index DESC, block_number DESC'],
  ['withdrawals_block', 'withdrawals', 'block_number, withdrawal_index DESC'],
];

export async function up(knex: Knex): Promise<void> {
  const d = dialectOf(knex);
  await knex.schema.createTable('withdrawals', (t) => {
    t.bigInteger('withdrawal_index').notNullable();
    t.bigInteger('validator_index').notNullable();
    t.text('address').notNullable();
    d.bigColumn(t, 'amount').notNullable();
    t.bigInteger('block_number').notNullable();
    t.text('block_hash').notNullable();
    t.bigInteger('timestamp').notNullable();
    t.unique(['block_hash', 'withdrawal_index'], { indexName: 'withdrawals_key' });
  });
  for (const [index, table, columns] of INDEXES) await knex.raw(`CREATE INDEX ${index} ON ${table} (${columns})`);
  await knex.schema.createTable('withdrawal_totals', (t) => {
    /** always 1: the table holds one row */
    t.integer('id').primary();
    t.bigInteger('count').notNullable();
    d.bigColumn(t, 'sum').notNullable();
  });
  await knex('withdrawal_totals').insert({ id: 1, count: 0, sum: d.big(0n) });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('withdrawal_totals');
  await knex.schema.dropTableIfExists('withdrawals');
}
