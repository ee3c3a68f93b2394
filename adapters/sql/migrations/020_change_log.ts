/**
 * The change log: one row per write transaction that changed anything, keyed by the data
 * version it produced (data_version.version), so a listener that missed notifications (another
 * process, a reconnect) catches up from the version it last saw. Only the notice is kept (block
 * range, rollback marker, pending hashes): the detail is read back through the DataSource ports.
 * The writer keeps the newest rows only (adapters/sql/feed.ts, CHANGE_LOG_KEEP).
 */
import type { Knex } from 'knex';

export const name = '020_change_log';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('change_log', (t) => {
    t.bigInteger('version').primary();
    /** consensus blocks added (both null: none) */
    t.bigInteger('from_block').nullable();
    t.bigInteger('to_block').nullable();
    /** blocks above this height were removed first (null: none) */
    t.bigInteger('rolled_back_to').nullable();
    /** pending transactions added: a JSON array of hashes (null: none) */
    t.text('pending').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('change_log');
}
