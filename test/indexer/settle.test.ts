/**
 * Upkeep after a bulk load (DataSink.settle): the indexer calls it once on catching up after
 * writing at least settleAfterBlocks blocks, not after a short run; the SQL store's settle
 * refreshes planner statistics (SQLite ANALYZE) and, on Postgres, the visibility map that
 * index-only reads rely on (VACUUM ANALYZE of every table of the store's schema) — without changing what any page answers.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { createExplorer } from '../../lib/index.ts';
import { createIndexer } from '../../lib/indexer/index.ts';
import type { DataSink } from '../../lib/ports.ts';
import { createMemoryStore } from '../../adapters/memory/index.ts';
import { createRpcChainSource } from '../../adapters/rpc/index.ts';
import { openSqlStore } from '../../adapters/sql/index.ts';
import type { SqlStore } from '../../adapters/sql/index.ts';
import { startAnvil } from '../../demo/anvil.ts';
import { loadFixtureChain } from '../../fixture/index.ts';
import { asRows, num } from '../../adapters/sql/rows.ts';
import { databaseUrl, selectedStoreNames, storeFactories } from '../support/stores.ts';
import { rpc } from './helpers.ts';

t.test('the indexer settles the sink once after a long catch-up, not after a short one', async (t) => {
  const anvil = await startAnvil();
  t.teardown(() => anvil.stop());
  await rpc(anvil.url, 'anvil_mine', ['0xb']); // blocks 1..11
  const memory = createMemoryStore();
  let settled = 0;
  const sink: DataSink = { ...memory, settle: async () => void settled++ };
  const logs: string[] = [];
  const indexer = createIndexer({
    source: createRpcChainSource(anvil.url),
    sink,
    batchSize: 4,
    settleAfterBlocks: 10,
    log: (line) => logs.push(line),
  });
  const first = await indexer.run();
  t.equal(first.indexedHead, 11);
  t.equal(settled, 1, '12 blocks written (≥ 10): settled once, on catching up');
  t.match(logs.join('\n'), /settled the store after 12 blocks written/);

  await rpc(anvil.url, 'anvil_mine', ['0x3']);
  const second = await indexer.run();
  t.equal(second.indexedHead, 14);
  t.equal(settled, 1, '3 more blocks (< 10): not settled again');

  // a sink without settle() is indexed as before
  const plain = createMemoryStore();
  const summary = await createIndexer({ source: createRpcChainSource(anvil.url), sink: plain, settleAfterBlocks: 1 }).run();
  t.equal(summary.indexedHead, 14);
  t.equal(await plain.getHighestBlockNumber(), 14);
});

t.test('a long stretch is indexed in bulk (beginBulk first, settle on catching up, whatever settleAfterBlocks); a short one is not', async (t) => {
  const anvil = await startAnvil();
  t.teardown(() => anvil.stop());
  await rpc(anvil.url, 'anvil_mine', ['0xb']); // blocks 1..11
  const store = await openSqlStore('sqlite::memory:');
  t.teardown(() => store.close());
  const calls: string[] = [];
  const sink: DataSink = {
    ...store,
    beginBulk: async () => {
      calls.push('bulk');
      await store.beginBulk();
    },
    writeBlocks: async (bundles) => {
      if (calls[calls.length - 1] !== 'write') calls.push('write');
      await store.writeBlocks(bundles);
    },
    settle: async () => {
      calls.push('settle');
      await store.settle();
    },
  };
  const logs: string[] = [];
  const indexer = createIndexer({ source: createRpcChainSource(anvil.url), sink, batchSize: 4, bulkAfterBlocks: 10, settleAfterBlocks: 1000, log: (line) => logs.push(line) });
  const first = await indexer.run();
  t.equal(first.indexedHead, 11);
  t.same(calls, ['bulk', 'write', 'settle'], '12 blocks behind (≥ 10): bulk before writing, settled on catching up although < settleAfterBlocks');
  t.match(logs.join('\n'), /bulk catch-up: 12 blocks behind/);
  t.match(logs.join('\n'), /settled the store after 12 blocks written in bulk/);
  t.equal(num(asRows(await store.knex('deferred_indexes').count({ n: '*' }))[0] ?? {}, 'n'), 0, 'every deferred index rebuilt');
  t.equal(await store.getHighestBlockNumber(), 11);

  calls.length = 0;
  await rpc(anvil.url, 'anvil_mine', ['0x3']);
  const second = await indexer.run();
  t.equal(second.indexedHead, 14);
  t.same(calls, ['write'], '3 blocks behind (< 10): no bulk, no settle');

  // a run that stopped in bulk (crashed before catching up): the next run settles, however short
  await store.beginBulk();
  calls.length = 0;
  await rpc(anvil.url, 'anvil_mine', ['0x2']);
  const third = await createIndexer({ source: createRpcChainSource(anvil.url), sink, bulkAfterBlocks: 10, settleAfterBlocks: 1000 }).run();
  t.equal(third.indexedHead, 16);
  t.same(calls, ['write', 'settle'], 'left in bulk: 2 blocks written, then settled');
  t.notOk(await store.inBulk(), 'no index deferred any more');
});

t.test('following: the few blocks of each poll never add up to a settle; a long stretch does', async (t) => {
  const anvil = await startAnvil();
  t.teardown(() => anvil.stop());
  const memory = createMemoryStore();
  let settled = 0;
  let caughtUp = 0;
  const sink: DataSink = { ...memory, settle: async () => void settled++ };
  const stop = new AbortController();
  const running = createIndexer({
    source: createRpcChainSource(anvil.url),
    sink,
    settleAfterBlocks: 7,
    pollIntervalMs: 20,
    onEvent: (e) => {
      if (e.type === 'caught-up') caughtUp++;
    },
  }).run({ follow: true, signal: stop.signal });
  const until = async (what: string, cond: () => boolean | Promise<boolean>): Promise<void> => {
    for (let i = 0; i < 1000 && !(await cond()); i++) await new Promise((r) => setTimeout(r, 20));
    t.ok(await cond(), what);
  };
  await until('caught up at block 0', async () => caughtUp > 0 && (await memory.getHighestBlockNumber()) === 0);
  for (let round = 1; round <= 4; round++) {
    const seen = caughtUp;
    await rpc(anvil.url, 'anvil_mine', ['0x2']);
    await until(`round ${round}: 2 blocks indexed and caught up again`, async () => (await memory.getHighestBlockNumber()) === 2 * round && caughtUp > seen);
  }
  t.equal(settled, 0, '8 blocks written while following, 2 between catch-ups (< 7): no settle');
  await rpc(anvil.url, 'anvil_mine', ['0x8']);
  await until('a stretch of 8 blocks (≥ 7) settles once', () => settled === 1);
  stop.abort();
  await running;
  t.equal(settled, 1);
});

/** a page of each kind, as JSON text: settle() must not change a byte */
async function pages(store: SqlStore): Promise<string[]> {
  const explorer = createExplorer({ chains: { '1': store }, cache: { maxEntries: 0 } });
  const out: string[] = [];
  for (const path of ['/api/v2/blocks', '/api/v2/transactions', '/api/v2/tokens', '/api/v2/token-transfers']) {
    const r = await explorer.handle({ path, query: {} });
    out.push(`${r.status} ${JSON.stringify(r.body)}`);
  }
  return out;
}

t.test('the SQL store settles: statistics (SQLite), visibility and statistics (Postgres)', async (t) => {
  const names = (await storeFactories()).map((f) => f.name);
  if (selectedStoreNames().includes('sqlite')) {
    await t.test('sqlite', async (t) => {
      const file = join(tmpdir(), `scoutkit-settle-${process.pid}-${randomBytes(4).toString('hex')}.sqlite`);
      const store = await openSqlStore(`sqlite:${file}`);
      t.teardown(async () => {
        await store.close();
        for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
      });
      await loadFixtureChain(store);
      const before = await pages(store);
      t.notOk(await store.knex.schema.hasTable('sqlite_stat1'), 'no statistics before');
      await store.settle?.();
      const stats = asRows(await store.knex.raw("SELECT count(*) AS n FROM sqlite_stat1 WHERE tbl = 'transactions'"));
      t.ok(num(stats[0] ?? {}, 'n') > 0, 'ANALYZE wrote statistics for transactions');
      t.same(await pages(store), before, 'the pages answer the same');
    });
  }
  if (names.includes('postgres')) {
    await t.test('postgres', async (t) => {
      const schema = `scoutkit_settle_${process.pid}_${randomBytes(4).toString('hex')}`;
      const store = await openSqlStore(databaseUrl(), { searchPath: schema, poolSize: 2 });
      t.teardown(async () => {
        try {
          await store.knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]);
        } finally {
          await store.close();
        }
      });
      await loadFixtureChain(store);
      const before = await pages(store);
      // Every table of the store's schema was vacuumed and analyzed by hand (last_vacuum is not
      // autovacuum's). Whether VACUUM can then mark pages all-visible depends on the oldest
      // snapshot open anywhere on the server (other tests' transactions), so that is not asserted.
      const done = async (): Promise<{ tables: number; vacuumed: number; analyzed: number }> => {
        const r = asRows(
          (
            await store.knex.raw(
              'SELECT count(*) AS tables, count(s.last_vacuum) AS vacuumed, count(s.last_analyze) AS analyzed FROM pg_tables p ' +
                'JOIN pg_stat_user_tables s ON s.schemaname = p.schemaname AND s.relname = p.tablename WHERE p.schemaname = current_schema()',
            )
          ).rows,
        )[0] ?? {};
        return { tables: num(r, 'tables'), vacuumed: num(r, 'vacuumed'), analyzed: num(r, 'analyzed') };
      };
      const unsettled = await done();
      t.ok(unsettled.tables > 30, `the store's ${unsettled.tables} tables`);
      t.equal(unsettled.vacuumed, 0, 'none vacuumed by hand after the load');
      await store.settle?.();
      const settled = await done();
      t.same(settled, { tables: unsettled.tables, vacuumed: unsettled.tables, analyzed: unsettled.tables }, 'every table of the schema vacuumed and analyzed');
      t.same(await pages(store), before, 'the pages answer the same');
    });
  }
});
