/**
 * address_counters kept by the SQL sink (adapters/sql/write/counters.ts) against a full recount from
 * the stored rows (migration 008 taken down and run again, as on a store written before it):
 * the fixture chain with its mempool, then a rollback, must leave the kept table equal to the recount.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import * as m008 from '../../../adapters/sql/migrations/008_address_counters.ts';
import { openSqlStore } from '../../../adapters/sql/index.ts';
import type { SqlStore } from '../../../adapters/sql/index.ts';
import { loadFixtureChain } from '../../../fixture/index.ts';
import { databaseUrl, storeFactories } from '../../support/stores.ts';

const names = (await storeFactories()).map((f) => f.name).filter((n) => n !== 'memory');
if (names.length === 0) t.pass('no SQL store selected');

async function open(name: string): Promise<{ store: SqlStore; close: () => Promise<void> }> {
  if (name === 'sqlite') {
    const file = join(tmpdir(), `scoutkit-counters-${process.pid}-${randomBytes(4).toString('hex')}.sqlite`);
    const store = await openSqlStore(`sqlite:${file}`);
    return {
      store,
      async close() {
        await store.close();
        for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
      },
    };
  }
  const schema = `scoutkit_c_${process.pid}_${randomBytes(4).toString('hex')}`;
  const store = await openSqlStore(databaseUrl(), { searchPath: schema, poolSize: 2 });
  return {
    store,
    async close() {
      try {
        await store.knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]);
      } finally {
        await store.close();
      }
    },
  };
}

/** The table's rows, every value as text (pg and SQLite hand back different JS types). */
async function table(store: SqlStore): Promise<string[]> {
  const rows = (await store.knex('address_counters').select('*').orderBy('address')) as Record<string, unknown>[];
  return rows.map((r) =>
    Object.keys(r)
      .sort()
      .map((k) => `${k}=${r[k] === true ? '1' : r[k] === false ? '0' : r[k] === null ? 'null' : String(r[k]).replace(/^0+(?=\d)/, '')}`)
      .join(' '),
  );
}

/** Migration 008 again: its table dropped, created and counted from the stored rows. */
async function recount(store: SqlStore): Promise<void> {
  await m008.down(store.knex);
  await m008.up(store.knex);
}

for (const name of names) {
  t.test(`${name}: the kept counters equal a recount from the stored rows`, async (t) => {
    const { store, close } = await open(name);
    t.teardown(close);
    await loadFixtureChain(store);
    const kept = await table(store);
    t.ok(kept.length > 100, `${kept.length} addresses counted`);
    t.ok(kept.some((r) => / listed=1 /.test(` ${r} `)) && kept.some((r) => / listed=0 /.test(` ${r} `)), 'listed and unlisted rows');
    await recount(store);
    t.same(await table(store), kept, 'after the fixture chain and its mempool');
    await store.rollbackAbove(70);
    const rolled = await table(store);
    t.notSame(rolled, kept, 'the rollback changed counts');
    await recount(store);
    t.same(await table(store), rolled, 'after a rollback');
  });
}
