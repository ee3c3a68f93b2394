/**
 * An explorer over a store with read replicas (DataSource.replicas): each request reads one
 * copy, its data version and its records alike, so a copy that is behind never answers from, or
 * stores into, the cache under another copy's version; the block a request names reaches the
 * pick; a copy that fails is asked once more of the copy picked then. Copies here are memory
 * stores given fewer blocks (a replica behind); the same on a real Postgres standby:
 * test/adapters/sql/replica.test.ts.
 */
import t from 'tap';
import { createMemoryStore } from '../../adapters/memory/index.ts';
import type { DataSource } from '../../lib/index.ts';
import { createExplorer, isCachedResponse } from '../../lib/index.ts';
import { buildFixtureChain } from '../../fixture/index.ts';

const chain = buildFixtureChain();
const primaryStore = createMemoryStore();
await primaryStore.writeBlocks(chain.bundles.slice(0, 10));
await primaryStore.writeBlocks(chain.bundles.slice(10, 20));
const behind = createMemoryStore();
await behind.writeBlocks(chain.bundles.slice(0, 10));
const primaryHead = await primaryStore.getHighestBlockNumber();
const behindHead = await behind.getHighestBlockNumber();

let next: DataSource = behind;
const asked: (number | undefined)[] = [];
const primary: DataSource = {
  ...primaryStore,
  replicas: {
    pick(atLeastBlock) {
      asked.push(atLeastBlock);
      return next;
    },
    states: () => [],
  },
};
const errors: unknown[] = [];
const explorer = createExplorer({ chains: { '1': primary }, onError: (e) => void errors.push(e) });
const head = async (query: Record<string, string> = {}): Promise<number | undefined> => {
  const res = await explorer.handle({ path: '/api/v2/blocks', query });
  return (res.body as { items: { height: number }[] }).items[0]?.height;
};

t.test('each request reads the copy picked, version and records alike', async (t) => {
  t.ok(behindHead !== null && primaryHead !== null && behindHead < primaryHead, `the copy is behind (${behindHead} < ${primaryHead})`);
  next = behind;
  t.equal(await head(), behindHead, 'the copy behind answers its own head');
  next = primary;
  t.equal(await head(), primaryHead, "the primary answers its head, not the copy's cached answer");
  next = behind;
  const again = await explorer.handle({ path: '/api/v2/blocks' });
  t.equal((again.body as { items: { height: number }[] }).items[0]?.height, behindHead, "and the copy behind its own again, not the primary's");
  t.ok(isCachedResponse(again), 'kept under the version of the copy that served it');
  t.equal(await explorer.handle({ path: '/api/v2/blocks' }), again, 'and found there by the next request on that copy');
  const rpc = await explorer.rpc({ chainId: '1', body: { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] } });
  t.match(rpc.body, { result: `0x${(behindHead ?? 0).toString(16)}` }, 'JSON-RPC reads the copy picked too');
});

t.test('the block a request names reaches the pick', async (t) => {
  next = behind;
  asked.length = 0;
  await head({ block_number: '5', items_count: '2' });
  await explorer.handle({ path: '/api/v2/blocks/7' });
  await explorer.handle({ path: '/api/v2/blocks/0x0000000000000000000000000000000000000000000000000000000000000001' });
  await head();
  t.same(asked, [5, 7, undefined, undefined], "a cursor's block_number, a block path's number; nothing else");
});

t.test('a copy that fails: asked once more of the copy picked then', async (t) => {
  const refused = (): Error => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
  // a replica that fails, and whose store then leaves it out (the next pick is the primary)
  const failing: DataSource = {
    ...behind,
    listBlocks: async () => {
      next = primary;
      throw refused();
    },
  };
  next = failing;
  errors.length = 0;
  const res = await explorer.handle({ path: '/api/v2/blocks', query: { items_count: '3' } });
  t.equal(res.status, 200, 'answered');
  t.equal((res.body as { items: { height: number }[] }).items[0]?.height, primaryHead, 'by the primary');
  t.equal(errors.length, 1, "the replica's failure is still told (onError)");

  // a copy that fails while it stays picked: one 503, no loop
  const stuck: DataSource = { ...behind, listBlocks: async () => Promise.reject(refused()) };
  next = stuck;
  errors.length = 0;
  const failed = await explorer.handle({ path: '/api/v2/blocks', query: { items_count: '4' } });
  t.equal(failed.status, 503, 'a 503 when no other copy is picked');
  t.equal(errors.length, 1, 'asked once');
});

t.test('the same data read through either copy is cached once, under one version', async (t) => {
  // a SQL-like primary (a shared version, this process's own writes counted beside it) and a
  // replica (its version alone) holding the same data: both say the same version
  let localWrites = 0;
  const { dataVersionSignal: _p, ...primaryData } = primaryStore;
  const { dataVersionSignal: _r, ...replicaData } = createMemoryStore();
  const replica: DataSource = { ...replicaData, ...primaryData, getDataVersion: async () => '7' };
  let pickNext: DataSource = replica;
  const shared: DataSource = {
    ...primaryData,
    getDataVersion: async () => '7',
    dataVersionSignal: { shared: true, local: () => localWrites },
    replicas: { pick: () => pickNext, states: () => [] },
  };
  const cached = createExplorer({ chains: { '1': shared }, cache: { versionPollMs: 60_000 } });
  const ask = () => cached.handle({ path: '/api/v2/blocks', query: { items_count: '5' } });
  pickNext = replica;
  const first = await ask();
  pickNext = shared;
  const second = await ask();
  t.equal(second, first, 'the primary finds the answer the replica stored (the same object)');
  pickNext = replica;
  t.equal(await ask(), first, 'and the replica finds it again: no entry replaced another');
  localWrites = 1;
  pickNext = shared;
  t.not(await ask(), first, "once this process has written, the primary's version is its own");
});
