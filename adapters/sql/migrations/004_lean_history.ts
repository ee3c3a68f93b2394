/**
 * History tables without their (key, block_hash) unique indexes.
 *
 * Nothing reads through them: current values come from the *_latest indexes (key, block_number,
 * seq) and rollbacks delete through the *_block indexes. They cost a random-key B-tree insert
 * per history row (on a 1M-transaction chain balance_history_key alone was 368 MB of 4.8 GB)
 * and made a bundle naming one key twice fail on SQL while the memory store keeps the later
 * row. Now every store keeps the later row: latest by (block_number, seq).
 */
import type { Knex } from 'knex';

export const name = '004_lean_history';

const KEYS: readonly (readonly [table: string, columns: readonly string[], index: string])[] = [
  ['token_history', ['address', 'block_hash'], 'token_history_key'],
  ['address_history', ['hash', 'block_hash'], 'address_history_key'],
  ['token_balance_history', ['holder', 'token_address', 'token_id', 'block_hash'], 'balance_history_key'],
  ['coin_balances', ['address', 'block_hash'], 'coin_balances_key'],
  ['token_instance_history', ['token_address', 'token_id', 'block_hash'], 'instance_history_key'],
];

export async function up(knex: Knex): Promise<void> {
  for (const [table, columns, index] of KEYS) {
    await knex.schema.alterTable(table, (t) => t.dropUnique([...columns], index));
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [table, columns, index] of KEYS) {
    await knex.schema.alterTable(table, (t) => t.unique([...columns], { indexName: index }));
  }
}
