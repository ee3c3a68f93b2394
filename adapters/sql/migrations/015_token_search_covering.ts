/**
 * Token prefix searches at the cost of a list page (listTokens with a prefix): the indexes of
 * token_search become covering, so that both ways of answering a prefix read index entries only
 * and touch tokens / token_holder_counts for the page's rows alone.
 * - token_search_name / token_search_symbol: the prefix range, then the list's order columns and
 *   type — few matches are read from the range and ordered (a top-N sort of index entries);
 * - token_search_order / token_search_type: the list's order, then name_lower and symbol_lower —
 *   many matches are found by walking the list's order and testing the prefix on the entry.
 * - addresses_contract_name: named contracts by ASCII-lower-cased name, then hash (the contracts
 *   of /search): a seek in order, where addresses_name would step over every named non-contract.
 */
import type { Knex } from 'knex';
import { dialectOf } from './frozen/dialect.ts';

export const name = '015_token_search_covering';

const ORDER = 'holders_rank, name_null, name_key, address';

async function recreate(knex: Knex, index: string, columns: string): Promise<void> {
  await knex.raw(`DROP INDEX ${index}`);
  await knex.raw(`CREATE INDEX ${index} ON token_search (${columns})`);
}

export async function up(knex: Knex): Promise<void> {
  await recreate(knex, 'token_search_order', `${ORDER}, name_lower, symbol_lower`);
  await recreate(knex, 'token_search_type', `type, ${ORDER}, name_lower, symbol_lower`);
  await recreate(knex, 'token_search_name', `name_lower, ${ORDER}, type`);
  await recreate(knex, 'token_search_symbol', `symbol_lower, ${ORDER}, type`);
  await knex.raw(`CREATE INDEX addresses_contract_name ON addresses (is_contract, (${dialectOf(knex).asciiLower('"name"')}), hash)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX addresses_contract_name');
  await recreate(knex, 'token_search_order', ORDER);
  await recreate(knex, 'token_search_type', `type, ${ORDER}`);
  await recreate(knex, 'token_search_name', 'name_lower');
  await recreate(knex, 'token_search_symbol', 'symbol_lower');
}
