/**
 * Indexes for listTokenHolders: the current balances of a token, or of one id, in the list's
 * order (value DESC, holder DESC, token_id DESC), so both orders are index range scans.
 */
import type { Knex } from 'knex';

export const name = '006_token_holders';

const INDEXES: readonly (readonly [name: string, table: string, columns: string])[] = [
  ['holders_token', 'current_token_balances', 'token_address, value DESC, holder DESC, token_id DESC'],
  ['holders_id', 'current_token_balances', 'token_address, token_id, value DESC, holder DESC'],
];

export async function up(knex: Knex): Promise<void> {
  for (const [index, table, columns] of INDEXES) await knex.raw(`CREATE INDEX ${index} ON ${table} (${columns})`);
}

export async function down(knex: Knex): Promise<void> {
  for (const [index] of INDEXES) await knex.raw(`DROP INDEX ${index}`);
}
