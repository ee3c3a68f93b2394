/**
 * The response cache: answers are reused only while the source's data version is unchanged.
 */
import t from 'tap';
import { createMemoryStore } from '../../adapters/memory/index.ts';
import type { DataSource } from '../../lib/index.ts';
import { createExplorer } from '../../lib/index.ts';
import { buildFixtureChain } from '../../fixture/index.ts';

const chain = buildFixtureChain();
const head = chain.bundles[chain.bundles.length - 1];
if (head === undefined) throw new Error('empty fixture');

type Page = { items: { height?: number; hash?: string }[] };

t.test('a repeated request is answered from the cache until the data changes', async (t) => {
  const store = createMemoryStore();
  await store.writeBlocks(chain.bundles.slice(0, -1));
  const ex = createExplorer({ chains: { '1': store } });
  const a = await ex.handle({ path: '/api/v2/blocks', query: { items_count: '1' } });
  const b = await ex.handle({ path: '/api/v2/blocks', query: { items_count: '1' } });
  t.equal(b, a, 'the same answer object');
  const reordered = await ex.handle({ path: '/api/v2/blocks', query: { items_count: '1', type: 'block' } });
  t.not(reordered, a, 'another query is another entry');

  await store.writeBlocks([head]);
  const c = await ex.handle({ path: '/api/v2/blocks', query: { items_count: '1' } });
  t.not(c, a, 'a written block invalidates');
  t.equal((c.body as unknown as Page).items[0]?.height, head.block.number, 'and the new head is listed');

  await store.rollbackAbove(head.block.number - 1);
  const d = await ex.handle({ path: '/api/v2/blocks', query: { items_count: '1' } });
  t.equal((d.body as unknown as Page).items[0]?.height, head.block.number - 1, 'a rollback invalidates');

  const pending0 = await ex.handle({ path: '/api/v2/transactions', query: { filter: 'pending' } });
  await store.writePendingTransactions(chain.pending.slice(0, 3));
  const pending1 = await ex.handle({ path: '/api/v2/transactions', query: { filter: 'pending' } });
  t.same((pending0.body as unknown as Page).items, [], 'no pending before');
  t.equal((pending1.body as unknown as Page).items.length, 3, 'new pending transactions invalidate');
});

t.test('sources without a data version, and a disabled cache, are never cached', async (t) => {
  const store = createMemoryStore();
  await store.writeBlocks(chain.bundles.slice(0, 5));
  const { getDataVersion: _unused, dataVersionSignal: _signal, ...unversioned } = store;
  const plain: DataSource = unversioned;
  const ex = createExplorer({ chains: { '1': plain } });
  const a = await ex.handle({ path: '/api/v2/blocks' });
  const b = await ex.handle({ path: '/api/v2/blocks' });
  t.not(b, a);
  t.same(b, a, 'equal answers, computed twice');
  const off = createExplorer({ chains: { '1': store }, cache: { maxEntries: 0 } });
  t.not(await off.handle({ path: '/api/v2/blocks' }), await off.handle({ path: '/api/v2/blocks' }), 'maxEntries 0: off');
});

t.test('failures of the source are not cached', async (t) => {
  const store = createMemoryStore();
  let fail = true;
  const flaky: DataSource = {
    ...store,
    listBlocks: (filter, page) => (fail ? Promise.reject(new Error('down')) : store.listBlocks(filter, page)),
  };
  const ex = createExplorer({ chains: { '1': flaky } });
  t.equal((await ex.handle({ path: '/api/v2/blocks' })).status, 503);
  fail = false;
  t.equal((await ex.handle({ path: '/api/v2/blocks' })).status, 200, 'the next request asks the source again');
});

t.test('entries are bounded: the least recently used goes first', async (t) => {
  const store = createMemoryStore();
  await store.writeBlocks(chain.bundles.slice(0, 5));
  const ex = createExplorer({ chains: { '1': store }, cache: { maxEntries: 2 } });
  const one = await ex.handle({ path: '/api/v2/blocks/1' });
  const two = await ex.handle({ path: '/api/v2/blocks/2' });
  t.equal(await ex.handle({ path: '/api/v2/blocks/1' }), one, 'hit; 1 is now the most recent');
  await ex.handle({ path: '/api/v2/blocks/3' });
  t.equal(await ex.handle({ path: '/api/v2/blocks/1' }), one, '1 stayed');
  t.not(await ex.handle({ path: '/api/v2/blocks/2' }), two, '2 was evicted');
});

t.test('with the cache off, the data version is never asked for', async (t) => {
  const store = createMemoryStore();
  await store.writeBlocks(chain.bundles);
  let asked = 0;
  const counting: DataSource = {
    ...store,
    getDataVersion: async () => {
      asked++;
      return store.getDataVersion();
    },
  };
  const off = createExplorer({ chains: { '1': counting }, cache: { maxEntries: 0 } });
  const a = await off.handle({ path: '/api/v2/blocks', query: { items_count: '1' } });
  const b = await off.handle({ path: '/api/v2/blocks', query: { items_count: '1' } });
  t.equal(a.status, 200);
  t.not(b, a, 'every request is answered afresh');
  t.equal(asked, 0, 'no version query');
  const { dataVersionSignal: _signal, ...polled } = counting;
  const on = createExplorer({ chains: { '1': polled }, cache: { versionPollMs: 0 } });
  await on.handle({ path: '/api/v2/blocks', query: { items_count: '1' } });
  t.equal(asked, 1, 'versionPollMs 0, no in-process signal: a caching explorer asks once per request');
});

t.test('the cache key: the same parameters in any order, the last of a repeated one, values kept apart', async (t) => {
  const store = createMemoryStore();
  await store.writeBlocks(chain.bundles);
  const ex = createExplorer({ chains: { '1': store } });
  const a = await ex.handle({ path: '/api/v2/blocks', query: { items_count: '2', type: 'block' } });
  t.equal(await ex.handle({ path: '/api/v2/blocks', query: { type: 'block', items_count: '2' } }), a, 'any order: one entry');
  t.equal(await ex.handle({ path: '/api/v2/blocks', query: { type: 'block', items_count: ['9', '2'] } }), a, 'a repeated parameter counts by its last value');
  t.equal(await ex.handle({ path: '/api/v2/blocks', query: { type: 'block', items_count: '2', unused: undefined } }), a, 'an absent value is no parameter');
  const joined = await ex.handle({ path: '/api/v2/blocks', query: { items_count: '2,type=block' } });
  t.not(joined, a, 'a value cannot pass for two parameters');
  const other = await ex.handle({ path: '/api/v2/blocks/1' });
  const multichain = await ex.handle({ path: '/1/api/v2/blocks/1' });
  t.not(multichain, other, 'the multichain form is its own entry');
  t.equal(await ex.handle({ path: '/api/v2/blocks/%31' }), other, 'a path parameter is keyed decoded');
});
