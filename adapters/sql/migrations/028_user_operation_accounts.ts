/**
 * The accounts of user operations (lib/ports/userOperations.ts listUserOperationAccounts), in
 * address order as Blockscout's `/accounts`: the unfiltered list is a seek on the sender rows of
 * user_operation_parties (its primary key (role, address)); these two partial indexes, over the
 * few operations that carry a factory (an account's first), serve the rest:
 * - user_operations_factory_accounts (factory, sender): the accounts of one factory, a seek in
 *   sender order (`factory` filter);
 * - user_operations_creations (sender, block_number, hash): an account's creation, its oldest
 *   operation carrying a factory, one probe per account of a page.
 */
import type { Knex } from 'knex';

export const name = '028_user_operation_accounts';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX user_operations_factory_accounts ON user_operations (factory, sender) WHERE factory IS NOT NULL');
  await knex.raw('CREATE INDEX user_operations_creations ON user_operations (sender, block_number, hash) WHERE factory IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX user_operations_creations');
  await knex.raw('DROP INDEX user_operations_factory_accounts');
}
