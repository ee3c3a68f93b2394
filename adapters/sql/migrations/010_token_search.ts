/**
 * The /tokens list and the search:
 * - token_search: one row per token with what listTokens orders and matches on, all in one
 *   table so that each query is an index range: holders_rank (= −holders_count, so the list's
 *   order is ascending in every column), name_null (1 for a NULL name: those sort last),
 *   name_key (the name, '' for NULL), the ASCII-lower-cased name and symbol for prefix ranges.
 *   The sink keeps it in step with tokens and token_holder_counts (adapters/sql/write/tokens.ts syncTokenSearch).
 * - addresses_name: named addresses by ASCII-lower-cased name, then hash (listAddresses).
 * Text keys compare by code point (frozen/dialect.ts codeOrderText / asciiLower).
 */
import type { Knex } from 'knex';
import { dialectOf } from './frozen/dialect.ts';

export const name = '010_token_search';

/** The token_search rows of the tokens whose address satisfies `where` (SQL over `t`). */
function tokenSearchSelect(knex: Knex, where: string): string {
  const d = dialectOf(knex);
  return `SELECT t."address", t."type", -COALESCE(h."holders_count", 0), CASE WHEN t."name" IS NULL THEN 1 ELSE 0 END,
    COALESCE(t."name", ''), ${d.asciiLower('t."name"')}, ${d.asciiLower('t."symbol"')}
    FROM tokens t LEFT JOIN token_holder_counts h ON h."token_address" = t."address" WHERE ${where}`;
}
const TOKEN_SEARCH_COLUMNS = '("address", "type", "holders_rank", "name_null", "name_key", "name_lower", "symbol_lower")';

export async function up(knex: Knex): Promise<void> {
  const d = dialectOf(knex);
  await knex.schema.createTable('token_search', (t) => {
    t.text('address').primary();
    t.text('type').notNullable();
    t.bigInteger('holders_rank').notNullable();
    t.integer('name_null').notNullable();
    d.codeOrderText(t, 'name_key').notNullable();
    d.codeOrderText(t, 'name_lower');
    d.codeOrderText(t, 'symbol_lower');
  });
  await knex.raw(`INSERT INTO token_search ${TOKEN_SEARCH_COLUMNS} ${tokenSearchSelect(knex, '1 = 1')}`);
  const order = 'holders_rank, name_null, name_key, address';
  await knex.raw(`CREATE INDEX token_search_order ON token_search (${order})`);
  await knex.raw(`CREATE INDEX token_search_type ON token_search (type, ${order})`);
  await knex.raw('CREATE INDEX token_search_name ON token_search (name_lower)');
  await knex.raw('CREATE INDEX token_search_symbol ON token_search (symbol_lower)');
  await knex.raw(`CREATE INDEX addresses_name ON addresses ((${d.asciiLower('"name"')}), hash)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX addresses_name');
  await knex.schema.dropTable('token_search');
}
