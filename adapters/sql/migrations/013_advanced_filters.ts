/**
 * Indexes for the advanced filters: token transfers by the method id of their transaction
 * (listTokenTransfers with methodIds and no address or token: one seek per method id), in the
 * list's order, so both orders and block ranges are index range scans.
 */
import type { Knex } from 'knex';

export const name = '013_advanced_filters';

const INDEXES: readonly (readonly [name: string, table: string, columns: string])[] = [
  ['transfers_method', 'token_transfers', 'method_id, block_number DESC, log_index DESC'],
];

export async function up(knex: Knex): Promise<void> {
  for (const [index, table, columns] of INDEXES) await knex.raw(`CREATE INDEX ${index} ON ${table} (${columns})`);
}

export async function down(knex: Knex): Promise<void> {
  for (const [index] of INDEXES) await knex.raw(`DROP INDEX ${index}`);
}
