/**
 * Which stores a test runs over: memory, SQLite (a fresh database file per open, removed on close) and
 * Postgres (a fresh schema per open, dropped on close), chosen by SCOUTKIT_STORES
 * (comma list, default all three). Postgres is reached at DATABASE_URL
 * (default postgres://postgres@127.0.0.1:5432/test). Under CI=true an unreachable Postgres
 * fails the run; elsewhere it is skipped with one loud line.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
      const store = await openSqlStore(`sqlite:${file}`);
      return {
        ...store,
        async close() {
          await store.close();
          for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
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
