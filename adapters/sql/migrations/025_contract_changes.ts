/**
 * The contract store's change feed and job input kinds:
 * - `verification_jobs.input_kind`: what a job was submitted as (null for jobs recorded before);
 * - `contract_version`: one row, the contract store's change counter, bumped (row-locked) by each
 *   write that logs a change, so versions are consecutive and in commit order across processes;
 * - `contract_changes`: one row per change, keyed by that version (a verified contract saved, or
 *   a job's state set), so a listener in another process catches up from the version it last saw.
 *   The writer keeps the newest rows only (adapters/sql/contracts.ts).
 */
import type { Knex } from 'knex';

export const name = '025_contract_changes';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('verification_jobs', (t) => {
    t.text('input_kind').nullable();
  });
  await knex.schema.createTable('contract_version', (t) => {
    t.integer('id').primary();
    t.bigInteger('version').notNullable();
  });
  await knex('contract_version').insert({ id: 1, version: 0 });
  await knex.schema.createTable('contract_changes', (t) => {
    t.bigInteger('version').primary();
    /** 'verified' or 'job' */
    t.text('kind').notNullable();
    t.text('address').notNullable();
    /** verified: the code hash saved */
    t.text('code_hash').nullable();
    /** job: its uid, state, message and input kind after the write */
    t.text('job_uid').nullable();
    t.text('job_state').nullable();
    t.text('job_message').nullable();
    t.text('input_kind').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('contract_changes');
  await knex.schema.dropTableIfExists('contract_version');
  await knex.schema.alterTable('verification_jobs', (t) => {
    t.dropColumn('input_kind');
  });
}
