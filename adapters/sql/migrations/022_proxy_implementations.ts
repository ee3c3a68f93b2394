/**
 * Proxies' implementation changes as the indexer sees them in the prestate diffs' storage writes
 * and created code (lib/proxy/detect.ts): one row per proxy and transaction, with history, so the
 * implementation at any block is answerable. Rows carry block_hash (rollback, idempotence).
 * A store indexed before this migration has no rows: re-index it (`scoutkit index --reset`); the
 * state changes it kept hold no storage writes to derive them from.
 */
import type { Knex } from 'knex';

export const name = '022_proxy_implementations';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('proxy_implementations', (t) => {
    t.text('block_hash').notNullable();
    t.bigInteger('block_number').notNullable();
    t.text('transaction_hash').notNullable();
    t.bigInteger('transaction_index').notNullable();
    t.text('proxy').notNullable();
    t.text('proxy_type').notNullable();
    /** the implementations, comma-separated ('' when the proxy points nowhere) */
    t.text('implementations').notNullable();
    t.text('beacon');
    t.primary(['block_hash', 'transaction_hash', 'proxy']);
  });
  // getProxyHistory: by proxy, oldest first
  await knex.raw('CREATE INDEX proxy_implementations_proxy ON proxy_implementations (proxy, block_number, transaction_index)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('proxy_implementations');
}
