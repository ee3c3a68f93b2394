/**
 * Which chain the store holds (lib/indexer/identity.ts): one row, written by the indexer.
 */
import type { Knex } from 'knex';

export const name = '002_chain_identity';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('chain_identity', (t) => {
    /** always 1: the table holds at most one row */
    t.integer('id').primary();
    t.bigInteger('chain_id').notNullable();
    t.text('genesis_hash').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('chain_identity');
}
