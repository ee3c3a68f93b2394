/**
 * balances_list carries token_type after its order columns, so a holder's balances
 * (listTokenBalances, listTokenHoldings) are read from the index alone: the unpaged
 * /token-balances of a holder of 1,000 tokens otherwise visits 1,000 scattered table rows.
 */
import type { Knex } from 'knex';

export const name = '016_balances_list_covering';

const ORDER = 'holder, value DESC, token_address DESC, token_id DESC';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX balances_list');
  await knex.raw(`CREATE INDEX balances_list ON current_token_balances (${ORDER}, token_type)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX balances_list');
  await knex.raw(`CREATE INDEX balances_list ON current_token_balances (${ORDER})`);
}
