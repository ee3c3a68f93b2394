/**
 * address_views: one row per address a page may show facts of — its addresses row (a contract
 * the indexer saw created), the type of the token at it, whether it has proxy changes — so that
 * getAddressViews reads a page's addresses with one index probe per key, as getAddresses does,
 * where joining addresses, tokens and proxy_implementations took three (RESULTS entry 32).
 * is_contract is null for an address without an addresses row (a token or a proxy created
 * before the indexed range, an EIP-7702 delegation). The writer rewrites the rows of every
 * address a write touches in those three tables (write/views.ts). Backfilled here from them.
 */
import type { Knex } from 'knex';

export const name = '024_address_views';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('address_views', (t) => {
    t.text('hash').primary();
    t.boolean('is_contract');
    t.text('name');
    t.text('creation_transaction_hash');
    t.text('creator_address');
    t.text('token_type');
    t.boolean('proxied').notNullable();
  });
  await knex.raw(
    `INSERT INTO address_views ("hash", "is_contract", "name", "creation_transaction_hash", "creator_address", "token_type", "proxied")
     SELECT k."hash", a."is_contract", a."name", a."creation_transaction_hash", a."creator_address", t."type", p."proxy" IS NOT NULL
     FROM (SELECT "hash" FROM addresses UNION SELECT "address" FROM tokens UNION SELECT "proxy" FROM proxy_implementations) k
     LEFT JOIN addresses a ON a."hash" = k."hash"
     LEFT JOIN tokens t ON t."address" = k."hash"
     LEFT JOIN (SELECT DISTINCT "proxy" FROM proxy_implementations) p ON p."proxy" = k."hash"`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('address_views');
}
