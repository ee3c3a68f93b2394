// the SQLite test store: a copy of a migrated template, as complete and as empty as a store migrated on open
import { copyFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import t from 'tap';
import { migrateSqlStore } from '../../adapters/sql/index.ts';
import { MIGRATIONS } from '../../adapters/sql/migrations/index.ts';
import { loadFixtureChain } from '../../fixture/index.ts';
import { sqliteTemplate, storeFactories } from './stores.ts';

t.test('the template holds every migration: a copy of it has nothing left to apply', async (t) => {
  const template = await sqliteTemplate();
  t.match(basename(template), /^scoutkit-test-template-[0-9a-f]{16}\.sqlite$/, 'named by the digest of the migrations');
  t.equal(await sqliteTemplate(), template, 'one template per process');
  t.notOk(existsSync(`${template}-wal`), 'whole in its file: no WAL beside it (a copy takes the file alone)');
  const copy = join(mkdtempSync(join(tmpdir(), 'scoutkit-template-')), 'copy.sqlite');
  copyFileSync(template, copy);
  const report = await migrateSqlStore(`sqlite:${copy}`);
  t.same(report.applied, [], 'nothing applied');
  t.same(report.current, MIGRATIONS.map((m) => m.name), 'every migration, in order');
});

t.test('a store opened from the template is empty and takes writes', async (t) => {
  const sqlite = (await storeFactories()).find((f) => f.name === 'sqlite');
  if (sqlite === undefined) return t.fail('SCOUTKIT_STORES leaves out sqlite');
  const a = await sqlite.open();
  const b = await sqlite.open();
  t.teardown(() => Promise.all([a.close(), b.close()]));
  t.equal(await a.getHighestBlockNumber(), null, 'no block');
  const { facts } = await loadFixtureChain(a);
  t.equal(await a.getHighestBlockNumber(), facts.headBlockNumber, 'the fixture chain written');
  t.equal(await b.getHighestBlockNumber(), null, 'each open a store of its own');
});
