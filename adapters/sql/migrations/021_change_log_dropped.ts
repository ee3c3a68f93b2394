/**
 * change_log gains the pending transactions a write dropped from the pool (mined, replaced by
 * another of the same sender and nonce, or gone from the node's pool), so a listener in another
 * process learns of them as the writer's own process does.
 */
import type { Knex } from 'knex';

export const name = '021_change_log_dropped';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('change_log', (t) => {
    /** pending transactions dropped: a JSON array of hashes (null: none) */
    t.text('pending_dropped').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('change_log', (t) => {
    t.dropColumn('pending_dropped');
  });
}
