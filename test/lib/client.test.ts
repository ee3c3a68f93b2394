import t from 'tap';
import { createMemoryStore } from '../../adapters/memory/index.ts';
import { asAddress, call, createExplorer, explorerClient } from '../../lib/index.ts';
import { loadFixtureChain } from '../../fixture/index.ts';

const store = createMemoryStore();
const { facts } = await loadFixtureChain(store);
const explorer = createExplorer({ chains: { '1': store, '5': createMemoryStore() }, defaultChain: '1' });

t.test('typed calls per endpoint answer like handle()', async (t) => {
  const api = explorerClient(explorer);
  const typed = await api.addressTokens({ address_hash_param: asAddress(facts.hotAddress) }, { type: 'ERC-721' });
  const byPath = await explorer.handle({ path: `/api/v2/addresses/${facts.hotAddress}/tokens`, query: { type: 'ERC-721' } });
  t.same(typed, { ok: true, ...byPath }, 'the answer of handle(), with ok');
  const generic = await call(explorer, 'addressTokens', { params: { address_hash_param: facts.hotAddress }, query: { type: 'ERC-721' } });
  t.same(generic, { ok: true, ...byPath }, 'call: the same answer, typed by the endpoint name');
  if (generic.ok) t.equal(generic.body.items.length, byPath.body === null ? 0 : (byPath.body as { items: unknown[] }).items.length);
  if (false as boolean) {
    // @ts-expect-error call checks the path parameter names of the endpoint it names
    await call(explorer, 'addressTokens', { params: { hash: facts.hotAddress } });
    // @ts-expect-error and wants them where the route has some
    await call(explorer, 'addressTokens');
    // @ts-expect-error and its query names
    await call(explorer, 'blocks', { query: { page: '2' } });
    // @ts-expect-error its answer is the endpoint's: a token balance has no `hash`
    if (generic.ok) generic.body.items[0]?.hash;
    // @ts-expect-error path parameter names are checked at compile time
    await api.addressTokens({ hash: asAddress(facts.hotAddress) });
    // @ts-expect-error unknown query names too
    await api.blocks({}, { page: 2 });
  }
});

t.test('each chain answers from its own source', async (t) => {
  const other = explorerClient(explorer, '5');
  const r = await other.blocks({});
  t.same(r.body, { items: [], next_page_params: null }, 'chain 5 is empty');
  const multichain = await explorer.handle({ path: '/5/api/v2/blocks' });
  t.same(multichain.body, r.body);
  const first = await explorer.handle({ path: '/1/api/v2/blocks', query: { items_count: '1' } });
  t.equal((first.body as { items: unknown[] }).items.length, 1);
});

t.test('a failing data source is a 503 JSON answer, never a throw', async (t) => {
  const broken = createMemoryStore();
  const failing = { ...broken, listBlocks: async () => Promise.reject(new Error('disk on fire')) };
  const errors: unknown[] = [];
  const ex = createExplorer({ chains: { '1': failing }, onError: (e) => errors.push(e) });
  const r = await ex.handle({ path: '/api/v2/blocks' });
  t.equal(r.status, 503);
  t.same(r.body, { message: 'The data source failed to answer' });
  t.equal(errors.length, 1, 'the cause goes to onError, not to the client');
});
