/**
 * The versioned migrations, in order, as a knex migrationSource: they are imported modules,
 * not files knex discovers, so they run from TypeScript source (tsx) and from any bundle.
 * Add a migration: create `NNN_name.ts` exporting `name`, `up` and `down`, and list it here.
 */
import type { Knex } from 'knex';
import * as m001 from './001_initial.ts';
import * as m002 from './002_chain_identity.ts';
import * as m003 from './003_data_version.ts';
import * as m004 from './004_lean_history.ts';
import * as m005 from './005_address_lists.ts';
import * as m006 from './006_token_holders.ts';
import * as m010 from './010_token_search.ts';

export interface Migration {
  readonly name: string;
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

export const MIGRATIONS: readonly Migration[] = [m001, m002, m003, m004, m005, m006, m010];

export const migrationSource: Knex.MigrationSource<Migration> = {
  getMigrations: () => Promise.resolve([...MIGRATIONS]),
  getMigrationName: (m) => m.name,
  getMigration: (m) => Promise.resolve({ up: m.up, down: m.down }),
};

/** The knex migrator settings every caller uses (table names are the store's own). */
export const migratorConfig: Knex.MigratorConfig = {
  migrationSource,
  tableName: 'scoutkit_migrations',
};
