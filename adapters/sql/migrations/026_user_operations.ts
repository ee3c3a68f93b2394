/**
 * ERC-4337 user operations (lib/userops/, lib/ports/userOperations.ts): one row per operation
 * of a consensus block, inserted with the block and deleted with it (rollback, a replaced block).
 *
 * Indexes, each its equality prefix followed by the list's order:
 * - user_operations_list (block_number DESC, hash DESC): /userOps without a filter, or one block;
 * - user_operations_<sender|bundler|paymaster|factory|entry_point>: that filter, then the order;
 * - user_operations_tx (transaction_hash, bundle_index, op_index): transaction_hash (and bundle_index);
 * - user_operations_bundles (block_number DESC, transaction_hash DESC, bundle_index DESC) and
 *   user_operations_bundler_bundles (bundler, …): /bundles, grouped along the index;
 * - user_operations_block (block_hash): rollback.
 * Hashes are compared by code point (codeOrderText), so keyset seeks agree with memory's order.
 *
 * A store indexed before this migration has no rows: the blocks that hold EntryPoint logs are
 * re-read to fill them (docs/operations.md).
 */
import type { Knex } from 'knex';
import { dialectOf } from './frozen/dialect.ts';

export const name = '026_user_operations';

const ORDER = 'block_number DESC, hash DESC';
const INDEXES: readonly (readonly [name: string, columns: string])[] = [
  ['user_operations_list', ORDER],
  ['user_operations_sender', `sender, ${ORDER}`],
  ['user_operations_bundler', `bundler, ${ORDER}`],
  ['user_operations_paymaster', `paymaster, ${ORDER}`],
  ['user_operations_factory', `factory, ${ORDER}`],
  ['user_operations_entry_point', `entry_point, ${ORDER}`],
  ['user_operations_tx', 'transaction_hash, bundle_index, op_index'],
  ['user_operations_bundles', 'block_number DESC, transaction_hash DESC, bundle_index DESC'],
  ['user_operations_bundler_bundles', 'bundler, block_number DESC, transaction_hash DESC, bundle_index DESC'],
  ['user_operations_block', 'block_hash'],
];

const BIG = [
  'nonce',
  'call_gas_limit',
  'verification_gas_limit',
  'pre_verification_gas',
  'max_fee_per_gas',
  'max_priority_fee_per_gas',
  'gas',
  'gas_price',
  'gas_used',
  'actual_gas_cost',
] as const;

export async function up(knex: Knex): Promise<void> {
  const d = dialectOf(knex);
  await knex.schema.createTable('user_operations', (t) => {
    d.codeOrderText(t, 'hash').notNullable().primary();
    t.text('sender').notNullable();
    t.text('init_code').notNullable();
    t.text('call_data').notNullable();
    t.text('paymaster_and_data').notNullable();
    t.text('signature').notNullable();
    t.text('aggregator');
    t.text('aggregator_signature');
    t.text('entry_point').notNullable();
    t.text('entry_point_version').notNullable();
    d.codeOrderText(t, 'transaction_hash').notNullable();
    t.bigInteger('transaction_index').notNullable();
    t.bigInteger('block_number').notNullable();
    t.text('block_hash').notNullable();
    t.bigInteger('timestamp').notNullable();
    t.text('bundler').notNullable();
    t.integer('bundle_index').notNullable();
    t.integer('op_index').notNullable();
    t.text('factory');
    t.text('paymaster');
    t.boolean('status').notNullable();
    t.text('revert_reason');
    t.text('sponsor_type').notNullable();
    t.bigInteger('user_logs_start_index').notNullable();
    t.integer('user_logs_count').notNullable();
    for (const c of BIG) d.bigColumn(t, c).notNullable();
  });
  for (const [index, columns] of INDEXES) await knex.raw(`CREATE INDEX ${index} ON user_operations (${columns})`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('user_operations');
}
