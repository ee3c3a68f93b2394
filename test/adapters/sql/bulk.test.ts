/**
 * Bulk catch-up (DataSink.beginBulk): the SQL store drops the read-only secondary indexes
 * (adapters/sql/bulk.ts), keeps their definitions, and settle() rebuilds them. Pages read in
 * bulk equal the pages after settle and the memory oracle's; after settle the index set is that
 * of a store that never went bulk; a crash during bulk and a rollback in bulk change nothing.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { createExplorer } from '../../../lib/index.ts';
import type { DataSink, DataSource } from '../../../lib/ports.ts';
import { createMemoryStore } from '../../../adapters/memory/index.ts';
import { openSqlStore } from '../../../adapters/sql/index.ts';
import type { SqlStore } from '../../../adapters/sql/index.ts';
import { DEFERRED_INDEXES, KEPT_INDEXES } from '../../../adapters/sql/bulk.ts';
import { asRows, num, str } from '../../../adapters/sql/rows.ts';
import { buildFixtureChain } from '../../../fixture/index.ts';
import type { FixtureChain } from '../../../fixture/index.ts';
import type { Test } from 'tap';
import { databaseUrl, postgresUnreachable, selectedStoreNames } from '../../support/stores.ts';

const chain: FixtureChain = buildFixtureChain();
const f = chain.facts;

/** list endpoints, each walked three pages deep (small pages), as JSON text */
const PATHS = [
  '/api/v2/blocks',
  '/api/v2/transactions',
  '/api/v2/token-transfers',
  '/api/v2/internal-transactions',
  '/api/v2/tokens',
  '/api/v2/addresses',
  `/api/v2/addresses/${f.hotAddress}/transactions`,
  `/api/v2/addresses/${f.hotAddress}/token-transfers`,
  `/api/v2/addresses/${f.hotAddress}/internal-transactions`,
  `/api/v2/addresses/${f.hotAddress}/token-balances`,
  `/api/v2/addresses/${f.hotAddress}/tokens`,
  `/api/v2/addresses/${f.hotAddress}/nft`,
  `/api/v2/addresses/${f.miner}/blocks-validated`,
  `/api/v2/tokens/${f.tokens.erc20}/holders`,
  `/api/v2/tokens/${f.tokens.erc20}/transfers`,
  `/api/v2/tokens/${f.tokens.erc721}/instances`,
  `/api/v2/transactions/${f.transactions.eip1559}/logs`,
  `/api/v2/transactions/${f.transactions.eip1559}/token-transfers`,
  '/api/v2/search?q=token',
];

async function pages(store: DataSource): Promise<string[]> {
  const explorer = createExplorer({ chains: { '1': store }, cache: { maxEntries: 0 } });
  const out: string[] = [];
  for (const full of PATHS) {
    const [path = '', qs = ''] = full.split('?');
    let query: Record<string, string> = Object.fromEntries(new URLSearchParams(qs));
    for (let page = 0; page < 3; page++) {
      const r = await explorer.handle({ path, query });
      out.push(`${full} #${page} ${r.status} ${JSON.stringify(r.body, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))}`);
      const next = (r.body as { next_page_params?: unknown } | null)?.next_page_params;
      if (typeof next !== 'object' || next === null) break;
      query = { ...Object.fromEntries(new URLSearchParams(qs)), ...Object.fromEntries(Object.entries(next).map(([k, v]) => [k, String(v)])) };
    }
  }
  return out;
}

async function write(sink: DataSink, from: number, to: number): Promise<void> {
  for (let i = from; i < to; i += 40) await sink.writeBlocks(chain.bundles.slice(i, Math.min(to, i + 40)));
}

/** the store's secondary (named, not automatic) indexes and their definitions */
async function indexes(store: SqlStore): Promise<Map<string, string>> {
  const rows =
    store.dialect === 'sqlite'
      ? asRows(await store.knex.raw("SELECT name, sql AS def FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"))
      : asRows((await store.knex.raw('SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE schemaname = current_schema()')).rows);
  // Postgres names the table with its schema (each test store has its own)
  return new Map(rows.map((r) => [str(r, 'name'), str(r, 'def').replace(/ ON (ONLY )?\w+\./, ' ON $1')]));
}

const saved = async (store: SqlStore): Promise<number> => num(asRows(await store.knex('deferred_indexes').count({ n: '*' }))[0] ?? {}, 'n');

interface Opened {
  readonly store: SqlStore;
  reopen(): Promise<SqlStore>;
}

async function opener(t: Test, name: 'sqlite' | 'postgres'): Promise<() => Promise<Opened>> {
  return async () => {
    const open = async (url: string, schema?: string): Promise<SqlStore> => openSqlStore(url, schema === undefined ? {} : { searchPath: schema, poolSize: 2 });
    if (name === 'sqlite') {
      const file = join(tmpdir(), `scoutkit-bulk-${process.pid}-${randomBytes(4).toString('hex')}.sqlite`);
      const stores: SqlStore[] = [];
      const track = async (): Promise<SqlStore> => {
        const s = await open(`sqlite:${file}`);
        stores.push(s);
        return s;
      };
      const store = await track();
      t.teardown(async () => {
        for (const s of stores) await s.close().catch(() => {});
        for (const p of [file, `${file}-wal`, `${file}-shm`]) rmSync(p, { force: true });
      });
      return { store, reopen: track };
    }
    const schema = `scoutkit_bulk_${process.pid}_${randomBytes(4).toString('hex')}`;
    const stores: SqlStore[] = [];
    const track = async (): Promise<SqlStore> => {
      const s = await open(databaseUrl(), schema);
      stores.push(s);
      return s;
    };
    const store = await track();
    t.teardown(async () => {
      const last = stores[stores.length - 1];
      if (last !== undefined) await last.knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]).catch(() => {});
      for (const s of stores) await s.close().catch(() => {});
    });
    return { store, reopen: track };
  };
}

t.test('every index of a fresh store is either kept or deferred in bulk, not both', async (t) => {
  const store = await openSqlStore('sqlite::memory:');
  t.teardown(() => store.close());
  const names = [...(await indexes(store)).keys()];
  const kept = Object.keys(KEPT_INDEXES);
  t.same(names.filter((n) => !kept.includes(n) && !DEFERRED_INDEXES.includes(n)), [], 'no index in neither list (a new migration must list its indexes in adapters/sql/bulk.ts)');
  t.same([...kept, ...DEFERRED_INDEXES].filter((n) => !names.includes(n)), [], 'every listed index exists');
  t.same(kept.filter((n) => DEFERRED_INDEXES.includes(n)), [], 'no index in both lists');
});

const oracle = createMemoryStore();
await write(oracle, 0, chain.bundles.length);
await oracle.writePendingTransactions(chain.pending);
const expected = await pages(oracle);

for (const name of ['sqlite', 'postgres'] as const) {
  t.test(name, async (t) => {
    if (!selectedStoreNames().includes(name)) {
        t.comment(`skipped: ${name} not selected`);
        return;
      }
    if (name === 'postgres') {
      const why = await postgresUnreachable();
      if (why !== null) {
        t.comment(`skipped: postgres unreachable: ${why}`);
        return;
      }
    }
    const fresh = await opener(t, name);
    const reference = await indexes((await fresh()).store);

    await t.test('pages in bulk equal the pages after settle and the oracle; settle restores every index', async (t) => {
      const { store } = await fresh();
      await store.beginBulk();
      await store.beginBulk(); // idempotent
      const during = await indexes(store);
      t.same(DEFERRED_INDEXES.filter((n) => during.has(n)), [], 'every deferred index dropped');
      t.same(Object.keys(KEPT_INDEXES).filter((n) => !during.has(n)), [], 'every kept index kept');
      t.equal(await saved(store), DEFERRED_INDEXES.length, 'their definitions saved');
      t.ok(await store.inBulk(), 'in bulk');
      await write(store, 0, chain.bundles.length);
      await store.writePendingTransactions(chain.pending);
      const inBulk = await pages(store);
      t.same(inBulk, expected, 'pages read in bulk = the oracle');
      // SQLite rebuilds with two sorter threads (Dialect.buildIndexes), then restores the setting
      const sorterThreads = async () => (store.dialect === 'sqlite' ? asRows(await store.knex.raw('PRAGMA threads')) : []);
      const threadsBefore = await sorterThreads();
      await store.settle();
      t.same(await sorterThreads(), threadsBefore, 'the writer connection keeps its sorter threads setting');
      t.same(await indexes(store), reference, 'after settle: the index set (and definitions) of a store never in bulk');
      t.equal(await saved(store), 0, 'no definition left saved');
      t.notOk(await store.inBulk(), 'out of bulk');
      t.same(await pages(store), expected, 'pages after settle = the oracle');
      await store.settle(); // nothing deferred: only the statistics
      t.same(await indexes(store), reference, 'a second settle changes no index');
    });

    await t.test('a crash during bulk: the next beginBulk keeps the saved definitions, the next settle restores them', async (t) => {
      const { store, reopen } = await fresh();
      await store.beginBulk();
      const half = Math.floor(chain.bundles.length / 2);
      await write(store, 0, half);
      await store.close(); // no settle
      const again = await reopen();
      t.equal(await saved(again), DEFERRED_INDEXES.length, 'the definitions survived the close');
      await again.beginBulk();
      t.equal(await saved(again), DEFERRED_INDEXES.length, 'kept by the second beginBulk');
      await write(again, half, chain.bundles.length);
      await again.writePendingTransactions(chain.pending);
      await again.settle();
      t.same(await pages(again), expected, 'pages = the oracle');
      t.same(await indexes(again), reference, 'the index set of a store never in bulk');
      t.equal(await saved(again), 0, 'no definition left saved');
    });

    await t.test('rollback and reorg in bulk stay exact', async (t) => {
      const { store } = await fresh();
      const memory = createMemoryStore();
      const cut = chain.bundles[Math.floor(chain.bundles.length / 2)]?.block.number ?? 0;
      const after = chain.bundles.findIndex((b) => b.block.number > cut);
      await store.beginBulk();
      for (const sink of [store, memory] as DataSink[]) {
        await write(sink, 0, chain.bundles.length);
        await sink.writePendingTransactions(chain.pending);
        await sink.rollbackAbove(cut);
      }
      t.same(await pages(store), await pages(memory), 'rolled back in bulk = the oracle rolled back');
      // the same blocks written again after the cut (a reorg back onto them)
      for (const sink of [store, memory] as DataSink[]) await write(sink, after, chain.bundles.length);
      const oracleAgain = await pages(memory);
      t.same(await pages(store), oracleAgain, 'written again in bulk = the oracle');
      await store.settle();
      t.same(await pages(store), oracleAgain, 'after settle = the oracle');
      t.same(await indexes(store), reference, 'every index back');
    });
  });
}
