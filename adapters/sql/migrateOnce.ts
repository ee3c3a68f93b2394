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
import { MIGRATIONS, migratorConfig } from './migrations/index.ts';
import { trySqliteFileLock } from './lease.ts';
import { sqliteFile } from './dialect.ts';
import { asRows, str } from './rows.ts';

/** the advisory lock's keys: scoutkit's migrations (any schema of the database) */
const MIGRATE_CLASS = 615_263_780;
/** how long an opener waits for another's migrations */
const WAIT_MS = 10 * 60_000;

const table = migratorConfig.tableName ?? 'scoutkit_migrations';

/** every migration applied already? (false on any doubt: a missing table or schema) */
async function isCurrent(knex: Knex): Promise<boolean> {
  try {
    if (!(await knex.schema.hasTable(table)) || !(await knex.schema.hasTable(`${table}_lock`))) return false;
    const done = new Set(asRows(await knex(table).select('name')).map((r) => str(r, 'name')));
    return MIGRATIONS.every((m) => done.has(m.name));
  } catch {
    return false;
  }
}

/**
 * Bring the store up to date (`prepare`: what must exist before migrating, e.g. the schema),
 * waiting for any other opener doing the same; returns the migrations this call applied.
 */
export async function migrateOnce(knex: Knex, url: string, prepare: () => Promise<void>): Promise<string[]> {
  const file = sqliteFile(url);
  if (file === ':memory:') {
    await prepare();
    return latest(knex);
  }
  if (await isCurrent(knex)) return [];
  if (file !== null) {
    const lock = await trySqliteFileLock(`${file}-migrate`, WAIT_MS);
    if (lock === null) throw new Error(`gave up waiting ${WAIT_MS / 1000} s for another process migrating ${file}`);
    try {
      await prepare();
      return await latest(knex);
    } finally {
      await new Promise<void>((resolve) => lock.close(() => resolve()));
    }
  }
  // Postgres: the lock lives in a transaction on one pooled connection; the migrator uses others
  const trx = await knex.transaction();
  try {
    await trx.raw('SELECT pg_advisory_xact_lock(?, 0)', [MIGRATE_CLASS]);
    await prepare();
    return await latest(knex);
  } finally {
    await trx.rollback().catch(() => {});
  }
}

async function latest(knex: Knex): Promise<string[]> {
  const [, applied] = (await knex.migrate.latest(migratorConfig)) as [number, string[]];
  return applied;
}
