/**
 * A counter bumped inside every write transaction that changes anything, so readers (also in
 * other processes) can tell when cached answers are stale: DataSource.getDataVersion.
 */
import type { Knex } from 'knex';

export const name = '003_data_version';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('data_version', (t) => {
    /** always 1: the table holds one row */
    t.integer('id').primary();
    t.bigInteger('version').notNullable();
  });
  await knex('data_version').insert({ id: 1, version: 0 });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('data_version');
}
