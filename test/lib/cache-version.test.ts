/**
 * How the response cache learns of new data without a version query per request (issue 13):
 * a store's own writes are seen by the very next request, with no query at all; another
 * process's writes (a second store object on the same SQLite file) within the poll interval,
 * with a bounded number of version queries, concurrent requests sharing the poll in flight.
 * Time is a fake clock where the interval matters, so nothing here depends on the machine's speed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import type { Test } from 'tap';
import { createMemoryStore } from '../../adapters/memory/index.ts';
import { openSqlStore } from '../../adapters/sql/index.ts';
import type { DataSink, DataSource, Explorer, VersionedDataSource } from '../../lib/index.ts';
import { createExplorer } from '../../lib/index.ts';
import { buildFixtureChain } from '../../fixture/index.ts';

const chain = buildFixtureChain();
const dir = mkdtempSync(join(tmpdir(), 'scoutkit-cache-version-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const sqliteFile = () => `sqlite:${join(dir, `store-${++files}.sqlite`)}`;

type Store = VersionedDataSource & DataSink;

/** The store with its version queries counted. */
function counted(store: Store): { source: DataSource; asked: () => number } {
  let asked = 0;
  const source: DataSource = {
    ...store,
    getDataVersion: () => {
      asked++;
      return store.getDataVersion();
    },
  };
  return { source, asked: () => asked };
}

type Page = { items: { height: number; hash: string }[] };
const blocks = (ex: Explorer) => ex.handle({ path: '/api/v2/blocks', query: { items_count: '1' } });
const headOf = async (ex: Explorer) => ((await blocks(ex)).body as unknown as Page).items[0]?.height;
const pendingOf = async (ex: Explorer) =>
  ((await ex.handle({ path: '/api/v2/transactions', query: { filter: 'pending' } })).body as unknown as Page).items.length;

const stores: { readonly name: string; readonly open: () => Promise<Store & { close?: () => Promise<void> }> }[] = [
  { name: 'memory', open: async () => createMemoryStore() },
  { name: 'sqlite', open: () => openSqlStore(sqliteFile()) },
];

for (const { name, open } of stores) {
  t.test(`${name}: a write through the same store is seen by the very next request, with no version query`, async (t) => {
    const store = await open();
    t.teardown(async () => store.close?.());
    await store.writeBlocks(chain.bundles.slice(0, 10));
    const { source, asked } = counted(store);
    // the clock never moves: only the write itself can tell the cache
    const ex = createExplorer({ chains: { '1': source }, cache: { now: () => 0 } });
    const first = await blocks(ex);
    t.equal(await blocks(ex), first, 'a repeated request is a cache hit');
    t.equal(await headOf(ex), 9);
    const pollsBefore = asked();
    t.ok(pollsBefore <= 1, `at most one version query so far (${pollsBefore})`);

    await store.writeBlocks(chain.bundles.slice(10, 20));
    t.equal(await headOf(ex), 19, 'the next answer lists the written block');
    await store.rollbackAbove(14);
    t.equal(await headOf(ex), 14, 'a rollback is seen by the next request');
    t.equal(await pendingOf(ex), 0);
    await store.writePendingTransactions(chain.pending.slice(0, 2));
    t.equal(await pendingOf(ex), 2, 'pending transactions are seen by the next request');
    t.equal(asked(), pollsBefore, 'no version query for any of it');
    for (let i = 0; i < 50; i++) await blocks(ex);
    t.equal(asked(), pollsBefore, '50 more hot requests: still none');
  });
}

t.test('memory: the version is never queried at all', async (t) => {
  const store = createMemoryStore();
  await store.writeBlocks(chain.bundles.slice(0, 5));
  const { source, asked } = counted(store);
  const ex = createExplorer({ chains: { '1': source } });
  for (let i = 0; i < 20; i++) await blocks(ex);
  await store.writeBlocks(chain.bundles.slice(5, 6));
  t.equal(await headOf(ex), 5);
  t.equal(asked(), 0, 'an in-process store needs no version query');
});

/** A writer and a reader: two store objects on the same SQLite file, as two processes would be. */
async function twoProcesses(t: Test): Promise<{ writer: Store; reader: Store }> {
  const file = sqliteFile();
  const writer = await openSqlStore(file);
  const reader = await openSqlStore(file);
  t.teardown(async () => {
    await reader.close();
    await writer.close();
  });
  await writer.writeBlocks(chain.bundles.slice(0, 10));
  return { writer, reader };
}

t.test('sqlite, another writer: seen within the poll interval, one version query per interval', async (t) => {
  const { writer, reader } = await twoProcesses(t);
  const { source, asked } = counted(reader);
  let clock = 1_000;
  const ex = createExplorer({ chains: { '1': source }, cache: { now: () => clock } });
  const first = await blocks(ex);
  t.equal(await headOf(ex), 9);
  t.equal(asked(), 1, 'one poll');

  await writer.writeBlocks(chain.bundles.slice(10, 20));
  clock += 99;
  t.equal(await blocks(ex), first, 'within the interval the cached answer may be stale');
  t.equal(asked(), 1, 'and no query was made');
  clock += 1;
  t.equal(await headOf(ex), 19, 'once the interval has passed, the next request sees the write');
  t.equal(asked(), 2, 'after one more poll');

  // N requests over a span of time: at most one query per interval, plus the first
  const n = 200;
  const step = 7;
  const before = asked();
  for (let i = 0; i < n; i++) {
    clock += step;
    await blocks(ex);
  }
  const bound = Math.ceil((n * step) / 100) + 1;
  t.ok(asked() - before <= bound, `${n} requests over ${n * step} ms: ${asked() - before} version queries (≤ ${bound})`);
  t.ok(asked() - before >= Math.floor((n * step) / (100 + step)), 'and the version is still polled every interval');

  await writer.rollbackAbove(12);
  clock += 100;
  t.equal(await headOf(ex), 12, 'a rollback by the other writer is seen after the interval');
});

t.test('sqlite, another writer, the real clock: seen once the interval has passed', async (t) => {
  const { writer, reader } = await twoProcesses(t);
  const ex = createExplorer({ chains: { '1': reader } });
  t.equal(await headOf(ex), 9);
  await writer.writeBlocks(chain.bundles.slice(10, 20));
  await sleep(200); // twice the default interval
  t.equal(await headOf(ex), 19, 'the write is seen');
});

t.test('concurrent requests share the poll in flight', async (t) => {
  const { reader } = await twoProcesses(t);
  const { source, asked } = counted(reader);
  let clock = 0;
  const ex = createExplorer({ chains: { '1': source }, cache: { now: () => clock } });
  const paths = ['/api/v2/blocks', '/api/v2/blocks/3', '/api/v2/transactions', '/api/v2/token-transfers'];
  const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => ex.handle({ path: paths[i % paths.length] ?? '/' })));
  t.ok(
    answers.every((a) => a.status === 200),
    'every answer is a 200',
  );
  t.equal(asked(), 1, '40 concurrent requests, one version query');
  clock += 100;
  await Promise.all(Array.from({ length: 40 }, (_, i) => ex.handle({ path: paths[i % paths.length] ?? '/' })));
  t.equal(asked(), 2, 'the next interval: one more');
});

t.test('a failed version query: that answer is not cached, the next request asks again', async (t) => {
  const { reader } = await twoProcesses(t);
  let fail = true;
  let asked = 0;
  const flaky: DataSource = {
    ...reader,
    getDataVersion: () => {
      asked++;
      return fail ? Promise.reject(new Error('down')) : reader.getDataVersion();
    },
  };
  const ex = createExplorer({ chains: { '1': flaky }, cache: { now: () => 0 } });
  const a = await blocks(ex);
  t.equal(a.status, 200, 'answered from the source');
  fail = false;
  const b = await blocks(ex);
  t.not(b, a, 'not from the cache');
  t.equal(asked, 2, 'asked again');
  t.equal(await blocks(ex), b, 'then cached again');
  t.equal(asked, 2);
});

t.test('versionPollMs 0: the version is asked on every request (sharing one in flight)', async (t) => {
  const { reader } = await twoProcesses(t);
  const { source, asked } = counted(reader);
  const ex = createExplorer({ chains: { '1': source }, cache: { versionPollMs: 0, now: () => 0 } });
  for (let i = 0; i < 5; i++) await blocks(ex);
  t.equal(asked(), 5);
  await Promise.all([blocks(ex), blocks(ex), blocks(ex)]);
  t.equal(asked(), 6, 'three concurrent requests, one query');
});
