/**
 * The SQLite writer's page cache (adapters/sql/dialect.ts): the one writer connection may cache
 * up to 256 MiB (a bulk load's kept indexes, keyed by block hash, stay in memory longer:
 * bench/RESULTS.md entry 37); the reader pool keeps SQLite's default.
 */
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { openSqlStore } from '../../../adapters/sql/index.ts';

const cacheSize = async (knex: Knex): Promise<unknown> => {
  const rows: unknown = await knex.raw('PRAGMA cache_size');
  return Array.isArray(rows) ? (rows[0] as { cache_size?: unknown } | undefined)?.cache_size : rows;
};

t.test('a SQLite file: the writer caches up to 256 MiB, the readers keep the default', async (t) => {
  const file = join(tmpdir(), `scoutkit-cache-${process.pid}-${randomBytes(4).toString('hex')}.sqlite`);
  const store = await openSqlStore(`sqlite:${file}`);
  t.teardown(async () => {
    await store.close();
    for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
  });
  t.not(store.reader, store.knex, 'a file has a reader pool of its own');
  t.equal(await cacheSize(store.knex), -262_144, 'the writer: 256 MiB (a negative size is KiB)');
  t.equal(await cacheSize(store.reader), -2000, "the readers: SQLite's default, 2,000 KiB");
});
