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
import * as m007 from './007_withdrawals.ts';
import * as m008 from './008_address_counters.ts';
import * as m009 from './009_chain_stats.ts';
import * as m010 from './010_token_search.ts';
import * as m011 from './011_contract_code_and_traces.ts';
import * as m012 from './012_transaction_signatures.ts';
import * as m013 from './013_advanced_filters.ts';
import * as m014 from './014_coin_supply.ts';
import * as m015 from './015_token_search_covering.ts';
import * as m016 from './016_balances_list_covering.ts';
import * as m017 from './017_blocks_seq.ts';
import * as m018 from './018_deferred_indexes.ts';
import * as m019 from './019_verified_contracts.ts';
import * as m020 from './020_change_log.ts';
import * as m021 from './021_change_log_dropped.ts';
import * as m022 from './022_proxy_implementations.ts';
import * as m023 from './023_proxy_diamond_cuts.ts';
import * as m024 from './024_address_views.ts';
import * as m025 from './025_contract_changes.ts';
import * as m026 from './026_user_operations.ts';
import * as m027 from './027_user_operation_parties.ts';
import * as m028 from './028_user_operation_accounts.ts';

export interface Migration {
  readonly name: string;
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

export const MIGRATIONS: readonly Migration[] = [m001, m002, m003, m004, m005, m006, m007, m008, m009, m010, m011, m012, m013, m014, m015, m016, m017, m018, m019, m020, m021, m022, m023, m024, m025, m026, m027, m028];

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
