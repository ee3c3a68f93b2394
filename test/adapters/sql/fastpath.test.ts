/**
 * The SQL DataSink's two ways to keep current values (balances, holder counts, owners,
 * tokens, addresses, instances): the append-only fast path (current rows straight from the
 * batch) and the recompute path (latest history row per touched key). The same chain written
 * (1) appending with the fast path, (2) appending with recompute forced, and (3) with
 * interleaved rollbacks, replacements and rewrites must leave stores with identical digests —
 * and equal to the memory store's.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { createMemoryStore } from '../../../adapters/memory/index.ts';
import { openSqlStore } from '../../../adapters/sql/index.ts';
import type { SqlStore } from '../../../adapters/sql/index.ts';
import { databaseUrl, storeFactories } from '../../support/stores.ts';
import type { Store } from './scenario.ts';
import { bundles, compare, emptyBundle, fakeHash, pending, snap, writeAll } from './scenario.ts';

const LIGHT = { limit: 25, stride: 5, light: true };
const names = (await storeFactories()).map((f) => f.name).filter((n) => n !== 'memory');
if (names.length === 0) t.pass('no SQL store selected');

type Opened = { store: SqlStore; close: () => Promise<void> };

async function open(name: string, recomputeCurrent: boolean): Promise<Opened> {
  if (name === 'sqlite') {
    const file = join(tmpdir(), `scoutkit-fast-${process.pid}-${randomBytes(4).toString('hex')}.sqlite`);
    const store = await openSqlStore(`sqlite:${file}`, { recomputeCurrent });
    return {
      store,
      async close() {
        await store.close();
        for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
      },
    };
  }
  const schema = `scoutkit_f_${process.pid}_${randomBytes(4).toString('hex')}`;
  const store = await openSqlStore(databaseUrl(), { searchPath: schema, poolSize: 4, recomputeCurrent });
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

/** Count the statements that recompute current values from history (window over history). */
function countRecomputes(store: SqlStore): { readonly n: number } {
  const counter = { n: 0 };
  store.knex.on('query', (q: unknown) => {
    if (typeof q === 'object' && q !== null && 'sql' in q && typeof q.sql === 'string' && q.sql.includes('ROW_NUMBER() OVER')) counter.n++;
  });
  return counter;
}

const top = bundles[bundles.length - 1].block;
/** two consensus blocks at the same new height in one batch: the later one wins */
const twins = [
  emptyBundle({ ...top, number: top.number + 1, parentHash: top.hash }, fakeHash('cafe', 1), true),
  emptyBundle({ ...top, number: top.number + 1, parentHash: top.hash }, fakeHash('cafe', 2), true),
];

/** the memory store's digest of the chain written as below (the reference of every SQL store) */
async function memoryDigest() {
  const memory = createMemoryStore();
  await memory.writeBlocks([...bundles.slice(0, 10)].reverse());
  await writeAll(memory, bundles.slice(10), 13);
  await memory.writeBlocks(twins);
  await memory.writePendingTransactions(pending);
  return snap(memory, LIGHT);
}
const expected = names.length === 0 ? [] : await memoryDigest();

for (const name of names) {
  await t.test(`${name}: append-only fast path = recompute path = memory`, async (t) => {
    const fast = await open(name, false);
    t.teardown(() => fast.close());
    const slow = await open(name, true);
    t.teardown(() => slow.close());
    const bumpy = await open(name, false);
    t.teardown(() => bumpy.close());

    const fastRecomputes = countRecomputes(fast.store);
    const slowRecomputes = countRecomputes(slow.store);
    // batches of mixed sizes, one of them out of height order
    const shuffled = [...bundles.slice(0, 10)].reverse();
    for (const s of [fast.store, slow.store] as Store[]) {
      await s.writeBlocks(shuffled);
      await writeAll(s, bundles.slice(10), 13);
      await s.writeBlocks(twins);
      await s.writePendingTransactions(pending);
    }
    t.equal(fastRecomputes.n, 0, 'appending never recomputes from history');
    t.ok(slowRecomputes.n > 0, 'the forced store recomputes');

    // the same chain reached through rollbacks, replacements and rewrites
    const b = bumpy.store;
    await writeAll(b, bundles, 40);
    await b.rollbackAbove(100);
    await writeAll(b, bundles.filter((x) => x.block.number > 100), 7);
    await b.writeBlocks([emptyBundle(bundles[120].block, fakeHash('dead', 120), true)]); // replaces 120
    await b.writeBlocks(bundles.slice(115, 130)); // brings 120 back (a replacement batch)
    await b.rollbackAbove(60);
    await writeAll(b, bundles.filter((x) => x.block.number > 60), 25);
    await b.writeBlocks(twins);
    await b.writePendingTransactions(pending);

    // each store's digest read once (nothing is written between the comparisons)
    const fastDigest = await snap(fast.store, LIGHT);
    const slowDigest = await snap(slow.store, LIGHT);
    compare(t, fastDigest, expected, 'fast path vs memory');
    compare(t, slowDigest, expected, 'recompute path vs memory');
    compare(t, await snap(b, LIGHT), expected, 'rollbacks and rewrites vs memory');
    compare(t, fastDigest, slowDigest, 'fast path vs recompute path');
    t.strictSame(await fast.store.getIndexedHead(), await slow.store.getIndexedHead(), 'same head');

    // holder counts and current tables compared row by row
    for (const table of ['current_token_balances', 'token_holder_counts', 'nft_owners', 'tokens', 'addresses', 'token_instances', 'token_search']) {
      // (a count that went back to 0 may stay as a row: the same as no row)
      const dump = async (s: SqlStore) =>
        (await s.knex(table).select('*'))
          .map((r: unknown) => JSON.stringify(r))
          .filter((r: string) => !r.includes('"holders_count":0}') && !r.includes('"holders_count":"0"}'))
          .sort()
          .join('\n');
      const f = await dump(fast.store);
      t.equal(f, await dump(slow.store), `${table}: fast = recompute`);
      t.equal(f, await dump(b), `${table}: fast = rollbacks and rewrites`);
    }
  });
}
