/**
 * EIP-2535 diamonds (lib/proxy/detect.ts): a row of proxy_implementations carries the transaction's
 * `DiamondCut`s as JSON (`[{facet, action, selectors}]`), null for every other kind; a diamond's
 * facets at a point fold every cut up to it. A store indexed before has no diamond rows: re-index.
 */
import type { Knex } from 'knex';

export const name = '023_proxy_diamond_cuts';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('proxy_implementations', (t) => {
    t.text('cuts');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('proxy_implementations', (t) => {
    t.dropColumn('cuts');
  });
}
