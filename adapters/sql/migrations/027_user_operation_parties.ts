/**
 * The kept counts of the parties user operations name (lib/ports/userOperations.ts
 * UserOperationParty): one row per (role, address) — role sender, bundler, paymaster or factory —
 * with its operations and (bundlers) bundles, moved by every write, rollback and backfill in the
 * same transaction, so the lists of accounts, bundlers, paymasters and factories are keyset seeks:
 * - user_operation_parties_ops (role, total_ops DESC, address DESC);
 * - user_operation_parties_bundles (role, total_bundles DESC, address DESC).
 * Filled from the operations already stored (none before migration 026's backfill).
 */
import type { Knex } from 'knex';

export const name = '027_user_operation_parties';

const ROLES = ['sender', 'bundler', 'paymaster', 'factory'] as const;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('user_operation_parties', (t) => {
    t.text('role').notNullable();
    t.text('address').notNullable();
    t.bigInteger('total_ops').notNullable();
    t.bigInteger('total_bundles').notNullable();
    t.primary(['role', 'address']);
  });
  await knex.raw('CREATE INDEX user_operation_parties_ops ON user_operation_parties (role, total_ops DESC, address DESC)');
  await knex.raw('CREATE INDEX user_operation_parties_bundles ON user_operation_parties (role, total_bundles DESC, address DESC)');
  for (const role of ROLES) {
    const bundles = role === 'bundler' ? 'count(distinct transaction_hash || bundle_index)' : '0';
    await knex.raw(
      `INSERT INTO user_operation_parties (role, address, total_ops, total_bundles)
       SELECT ?, ${role}, count(*), ${bundles} FROM user_operations WHERE ${role} IS NOT NULL GROUP BY ${role}`,
      [role],
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('user_operation_parties');
}
