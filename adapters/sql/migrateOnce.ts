/**
 * Migrations, once, whoever opens the store first: a writer and any number of readers opening
 * one new store at the same moment wait for one another instead of racing in knex's migrator
 * (its migration tables are created check-then-create, and its lock row is taken without
 * waiting: "SQLITE_BUSY" or "Migration table is already locked").
 *
 * An opener that finds every migration applied does nothing (no lock taken). Otherwise it takes
 * the store's migration lock, waiting for it — SQLite: an exclusive lock on `<db>-migrate`
 * beside the file (SQLite's own file lock, which the kernel frees if its holder dies);
 * Postgres: a transaction-level advisory lock — and migrates under it: the first does the work,
 * the others find it done.
 */
import type { Knex } from 'knex';
import { trySqliteFileLock, withPgAdvisoryLock } from './lease.ts';
import { sqliteFile } from './dialect.ts';
import { asRows, str } from './rows.ts';

/** the advisory lock's keys: scoutkit's migrations (any schema of the database) */
const MIGRATE_CLASS = 615_263_780;
/** how long an opener waits for another's migrations */
const WAIT_MS = 10 * 60_000;

/** the migrations to apply, as the store opener (index.ts, the one live importer of the list) hands them */
export interface Migrator {
  readonly config: Knex.MigratorConfig;
  /** every migration's name */
  readonly names: readonly string[];
}

/** every migration applied already? (false on any doubt: a missing table or schema) */
async function isCurrent(knex: Knex, migrator: Migrator): Promise<boolean> {
  const table = migrator.config.tableName ?? 'scoutkit_migrations';
  try {
    if (!(await knex.schema.hasTable(table)) || !(await knex.schema.hasTable(`${table}_lock`))) return false;
    const done = new Set(asRows(await knex(table).select('name')).map((r) => str(r, 'name')));
    return migrator.names.every((name) => done.has(name));
  } catch {
    return false;
  }
}

/**
 * Bring the store up to date (`prepare`: what must exist before migrating, e.g. the schema),
 * waiting for any other opener doing the same; returns the migrations this call applied.
 */
export async function migrateOnce(knex: Knex, url: string, migrator: Migrator, prepare: () => Promise<void>): Promise<string[]> {
  const latest = async (): Promise<string[]> => {
    const [, applied] = (await knex.migrate.latest(migrator.config)) as [number, string[]];
    return applied;
  };
  const file = sqliteFile(url);
  if (file === ':memory:') {
    await prepare();
    return latest();
  }
  if (await isCurrent(knex, migrator)) return [];
  if (file !== null) {
    const lock = await trySqliteFileLock(`${file}-migrate`, WAIT_MS);
    if (lock === null) throw new Error(`gave up waiting ${WAIT_MS / 1000} s for another process migrating ${file}`);
    try {
      await prepare();
      return await latest();
    } finally {
      await new Promise<void>((resolve) => lock.close(() => resolve()));
    }
  }
  // Postgres: the lock is held on a connection of its own, outside the store's pool (a pool of
  // one connection would otherwise wait for itself); the migrator uses the pool
  return withPgAdvisoryLock(url, MIGRATE_CLASS, async () => {
    await prepare();
    return latest();
  });
}
