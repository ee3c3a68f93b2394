/**
 * Which stores a test runs over: memory, SQLite (a fresh database file per open, copied from a
 * migrated template, removed on close) and Postgres (a fresh schema per open, dropped on
 * close), chosen by SCOUTKIT_STORES (comma list, default all three). Postgres is reached at
 * DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test). Under CI=true an unreachable Postgres
 * fails the run; elsewhere it is skipped with one loud line.
 */
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import knexFactory from 'knex';
import type { DataSink, VersionedDataSource } from '../../lib/ports.ts';
import { createMemoryStore } from '../../adapters/memory/index.ts';
import { openSqlStore } from '../../adapters/sql/index.ts';

export type StoreName = 'memory' | 'sqlite' | 'postgres';
export const STORE_NAMES: readonly StoreName[] = ['memory', 'sqlite', 'postgres'];

export type TestStore = VersionedDataSource & DataSink & { close(): Promise<void> };

export interface StoreFactory {
  readonly name: StoreName;
  open(): Promise<TestStore>;
}

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

export function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  return url === undefined || url === '' ? DEFAULT_DATABASE_URL : url;
}

/** The stores named by SCOUTKIT_STORES (default all), in STORE_NAMES order. */
export function selectedStoreNames(): StoreName[] {
  const raw = process.env.SCOUTKIT_STORES;
  if (raw === undefined || raw.trim() === '') return [...STORE_NAMES];
  const wanted = raw.split(',').map((s) => s.trim().toLowerCase()).filter((s) => s !== '');
  for (const w of wanted) {
    if (!(STORE_NAMES as readonly string[]).includes(w)) throw new Error(`SCOUTKIT_STORES: unknown store ${w} (memory, sqlite, postgres)`);
  }
  return STORE_NAMES.filter((n) => wanted.includes(n));
}

let postgresCheck: Promise<string | null> | undefined;
/** null when Postgres answers, else the reason it does not. Checked once per process. */
export function postgresUnreachable(): Promise<string | null> {
  postgresCheck ??= (async () => {
    const knex = knexFactory({ client: 'pg', connection: { connectionString: databaseUrl(), connectionTimeoutMillis: 3000 }, pool: { min: 0, max: 1 } });
    try {
      await knex.raw('select 1');
      return null;
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    } finally {
      await knex.destroy();
    }
  })();
  return postgresCheck;
}

let warned = false;

const MIGRATIONS_DIR = fileURLToPath(new URL('../../adapters/sql/migrations/', import.meta.url));

/** Every file under `dir` (relative paths, sorted), to name what the migrations are. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(dir, join(prefix, e.name)) : [join(prefix, e.name)]))
    .sort();
}

const sqliteFiles = (file: string): string[] => [file, `${file}-wal`, `${file}-shm`, `${file}-migrate`];

let template: Promise<string> | undefined;
/**
 * A migrated, empty SQLite file, named by a digest of the migrations' sources: shared by every
 * test process (and run) on the machine, so a store opens by a file copy and a migrator that
 * finds nothing to do (≈ 5–10 ms of CPU) rather than running every migration (≈ 55–115 ms).
 * Built under a name of its own and renamed into place, so processes building it at once
 * never read a half-built file.
 */
export function sqliteTemplate(): Promise<string> {
  template ??= (async () => {
    const digest = createHash('sha256');
    for (const f of filesUnder(MIGRATIONS_DIR)) digest.update(f).update('\0').update(readFileSync(join(MIGRATIONS_DIR, f)));
    const file = join(tmpdir(), `scoutkit-test-template-${digest.digest('hex').slice(0, 16)}.sqlite`);
    if (existsSync(file)) return file;
    const building = `${file}.${process.pid}-${randomBytes(4).toString('hex')}`;
    const store = await openSqlStore(`sqlite:${building}`);
    // everything into the file itself (the copy takes the file alone); a copy that still lacked a
    // migration would run it on open, as any older database does
    await store.knex.raw('PRAGMA wal_checkpoint(TRUNCATE)');
    await store.close();
    renameSync(building, file);
    for (const f of sqliteFiles(building)) rmSync(f, { force: true });
    return file;
  })();
  return template;
}

const factories: Record<StoreName, StoreFactory> = {
  memory: {
    name: 'memory',
    open: async () => ({ ...createMemoryStore(), close: async () => {} }),
  },
  sqlite: {
    name: 'sqlite',
    // a file, as the embedded default runs (WAL, one writer, a pool of readers)
    async open() {
      const file = join(tmpdir(), `scoutkit-test-${process.pid}-${randomBytes(4).toString('hex')}.sqlite`);
      copyFileSync(await sqliteTemplate(), file);
      const store = await openSqlStore(`sqlite:${file}`);
      return {
        ...store,
        async close() {
          await store.close();
          for (const f of sqliteFiles(file)) rmSync(f, { force: true });
        },
      };
    },
  },
  postgres: {
    name: 'postgres',
    async open() {
      const schema = `scoutkit_t_${process.pid}_${randomBytes(4).toString('hex')}`;
      const store = await openSqlStore(databaseUrl(), { searchPath: schema, poolSize: 4 });
      return {
        ...store,
        async close() {
          try {
            await store.knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]);
          } finally {
            await store.close();
          }
        },
      };
    },
  },
};

/**
 * The factories to run. Postgres is included only when reachable; under CI=true an
 * unreachable Postgres throws.
 */
export async function storeFactories(): Promise<StoreFactory[]> {
  const out: StoreFactory[] = [];
  for (const name of selectedStoreNames()) {
    if (name === 'postgres') {
      const reason = await postgresUnreachable();
      if (reason !== null) {
        if (process.env.CI === 'true') throw new Error(`Postgres is required under CI but unreachable at ${databaseUrl()}: ${reason}`);
        if (!warned) {
          warned = true;
          console.error(`!!!!! POSTGRES UNREACHABLE at ${databaseUrl()} (${reason}) — SKIPPING THE POSTGRES STORE !!!!!`);
        }
        continue;
      }
    }
    out.push(factories[name]);
  }
  return out;
}
