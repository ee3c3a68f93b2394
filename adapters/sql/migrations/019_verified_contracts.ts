/**
 * The contract store's tables (adapters/sql/contracts.ts): verified contracts keyed by the
 * runtime code's hash, and verification jobs. Neither carries a block: block rollback never
 * touches them (a reorg that re-creates the same code keeps it verified).
 *
 * Flags are 0/1 integers and JSON is text, the same on both dialects; times are unix ms.
 */
import type { Knex } from 'knex';

export const name = '019_verified_contracts';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('verified_contracts', (t) => {
    // the list's order (newest verification first) and cursor
    t.increments('id');
    t.text('code_hash').notNullable().unique('verified_contracts_code_hash');
    t.text('address').notNullable();
    t.text('name').notNullable();
    t.text('language').notNullable();
    t.text('compiler_version').notNullable();
    t.integer('optimization_enabled').notNullable();
    t.integer('optimization_runs');
    t.text('evm_version').notNullable();
    t.text('compiler_settings');
    t.text('code_format').notNullable();
    t.text('file_path').notNullable();
    t.text('sources').notNullable();
    t.text('abi').notNullable();
    t.text('match_kind').notNullable();
    t.text('creation_match');
    t.integer('has_immutables').notNullable();
    t.text('libraries').notNullable();
    t.text('constructor_arguments');
    t.text('license_type').notNullable();
    t.bigInteger('verified_at').notNullable();
    t.integer('verified_via_sourcify').notNullable();
    t.integer('verified_via_eth_bytecode_db').notNullable();
    t.integer('verified_via_verifier_alliance').notNullable();
    t.integer('is_blueprint').notNullable();
    t.integer('certified').notNullable();
    // when this row was last written (the store's data version)
    t.bigInteger('saved_at').notNullable();
  });
  // the list filtered by language, newest first
  await knex.raw('CREATE INDEX verified_contracts_language ON verified_contracts (language, id)');

  await knex.schema.createTable('verification_jobs', (t) => {
    t.text('uid').primary();
    t.text('address').notNullable();
    t.text('input_hash').notNullable();
    t.text('state').notNullable();
    t.text('message');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
  });
  // "the same address and input run once": the latest job of an address and input
  await knex.raw('CREATE INDEX verification_jobs_input ON verification_jobs (address, input_hash, created_at)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('verification_jobs');
  await knex.schema.dropTable('verified_contracts');
}
