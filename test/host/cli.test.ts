/**
 * The CLI's store commands through main(argv): migrate (SQLite file; Postgres through
 * migrateSqlStore in a fresh schema), seed, and their refusals.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import { main } from '../../host/cli.ts';
import { runMigrateCommand } from '../../host/commands/migrate.ts';
import { runSeedCommand } from '../../host/commands/seed.ts';
import { migrateSqlStore, openSqlStore } from '../../adapters/sql/index.ts';
import { MIGRATIONS } from '../../adapters/sql/migrations/index.ts';
import { databaseUrl, postgresUnreachable } from '../support/stores.ts';

const names = MIGRATIONS.map((m) => m.name);

t.test('migrate a SQLite file: applies every migration once, then nothing', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'scoutkit-migrate-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = `sqlite:${join(dir, 'm.sqlite')}`;
  const out: string[] = [];
  const io = { write: (s: string) => void out.push(s) };
  t.equal(await runMigrateCommand(['--db', db], io), 0);
  t.equal(out.join(''), `${db}: applied ${names.join(', ')} (latest ${names.at(-1)})\n`);
  out.length = 0;
  t.equal(await runMigrateCommand(['--db', db], io), 0);
  t.equal(out.join(''), `${db}: up to date (${names.length} migrations; latest ${names.at(-1)})\n`);

  // the migrated file opens without migrating and answers
  const store = await openSqlStore(db, { migrate: false });
  t.teardown(() => store.close());
  t.equal(await store.getHighestBlockNumber(), null, 'an empty, usable store');
});

t.test('migrate refuses what it cannot migrate', async (t) => {
  await t.rejects(runMigrateCommand([]), /give --db/);
  await t.rejects(runMigrateCommand(['--db', 'memory:']), /needs a SQL store/);
  await t.rejects(runMigrateCommand(['--db', 'postgres://u:secret@127.0.0.1:1/x', '--bogus']), /Unknown option/);
  const err: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((s: string) => (err.push(String(s)), true)) as typeof process.stderr.write;
  try {
    t.equal(await main(['migrate', '--db', 'memory:']), 1, 'exit code 1');
  } finally {
    process.stderr.write = write;
  }
  t.match(err.join(''), /scoutkit migrate: migrate needs a SQL store/);
});

t.test('migrate a Postgres schema', async (t) => {
  const why = await postgresUnreachable();
  if (why !== null) {
    if (process.env.CI) throw new Error(`Postgres is required under CI: ${why}`);
    t.comment(`!!! Postgres unreachable (${why}): the Postgres migrate test is SKIPPED`);
    return;
  }
  const schema = `scoutkit_m_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: databaseUrl() });
  t.teardown(async () => {
    await admin.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]);
    await admin.destroy();
  });
  t.same(await migrateSqlStore(databaseUrl(), { searchPath: schema }), { applied: names, current: names });
  t.same(await migrateSqlStore(databaseUrl(), { searchPath: schema }), { applied: [], current: names });
  const tables = await admin('information_schema.tables').where('table_schema', schema).pluck('table_name');
  t.ok(tables.includes('token_transfers') && tables.includes('blocks'), 'the schema has its tables');
});

t.test('seed writes the fixture chain; seeding twice is harmless', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'scoutkit-seed-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = `sqlite:${join(dir, 's.sqlite')}`;
  const out: string[] = [];
  const io = { write: (s: string) => void out.push(s) };
  t.equal(await runSeedCommand(['--db', db], io), 0);
  t.equal(await runSeedCommand(['--db', db], io), 0);
  t.match(out.join(''), /seeded .*s\.sqlite: \d+ blocks, head \d+\n.*seeded/s);
  const store = await openSqlStore(db);
  t.teardown(() => store.close());
  const head = await store.getHighestBlockNumber();
  t.ok(head !== null && head > 100, 'the fixture chain is there');
});
