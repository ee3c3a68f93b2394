/**
 * deferred_indexes: the definitions of the read-only secondary indexes a bulk catch-up dropped
 * (DataSink.beginBulk, adapters/sql/bulk.ts), kept until settle() recreates them. A crash in
 * between leaves them here; the next settle restores them.
 */
import type { Knex } from 'knex';

export const name = '018_deferred_indexes';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('deferred_indexes', (t) => {
    t.text('name').primary();
    t.text('definition').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('deferred_indexes');
}
