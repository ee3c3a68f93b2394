/**
 * Search finds a user operation by its hash: GET /search, /search/quick and
 * /search/check-redirect through createExplorer, on every store SCOUTKIT_STORES selects, over
 * the user-operation test chain (userOperationChain.ts) and a block written here whose
 * operations share their hashes with a transaction and a block (Blockscout's order: transaction,
 * block, then user operation). Both forms; every answer validated against both official
 * documents and ours. A store without the user-operation queries finds none.
 */
import t from 'tap';
import type { Test } from 'tap';
import { createMemoryStore } from '../../../adapters/memory/index.ts';
import type { Explorer } from '../../../lib/index.ts';
import { createExplorer, toJson } from '../../../lib/index.ts';
import type { DataSource } from '../../../lib/ports.ts';
import { officialFormOf, officialSpecs, validateResponse } from '../../support/openapi.ts';
import { validatingExplorer } from '../../support/openapiOurs.ts';
import { storeFactories } from '../../support/stores.ts';
import { block, bundle, tx } from '../../ports/records.ts';
import { userOp, writeUserOperationChain } from './userOperationChain.ts';

const specs = await officialSpecs();
const factories = await storeFactories();

type Form = 'instance' | 'multichain';
type Item = Record<string, unknown>;

async function call(t: Test, ex: Explorer, route: string, q: string, form: Form = 'instance'): Promise<unknown> {
  const r = await ex.handle({ path: `${form === 'instance' ? '' : '/1'}/api/v2${route}`, query: { q } });
  t.equal(r.status, 200, `${route} …${q.trim().slice(-8)}: 200 (${form})`);
  const body: unknown = JSON.parse(toJson(r.body));
  if (specs !== null) t.same(validateResponse(specs, officialFormOf(form, route), route, r.status, body), [], `${route} …${q.trim().slice(-8)}: the official document (${form})`);
  return body;
}

const search = async (t: Test, ex: Explorer, q: string, form: Form = 'instance'): Promise<Item[]> => {
  const body = (await call(t, ex, '/search', q, form)) as { items: Item[]; next_page_params: unknown };
  t.equal(body.next_page_params, null, 'one page');
  return body.items;
};
const quick = async (t: Test, ex: Explorer, q: string, form: Form = 'instance'): Promise<Item[]> => (await call(t, ex, '/search/quick', q, form)) as Item[];
const redirect = async (t: Test, ex: Explorer, q: string, form: Form = 'instance'): Promise<unknown> => call(t, ex, '/search/check-redirect', q, form);

const opItem = (hash: string, timestamp: number): Item => ({
  type: 'user_operation',
  user_operation_hash: hash,
  timestamp: `${new Date(timestamp * 1000).toISOString().slice(0, 19)}.000000Z`,
  priority: 0,
});

for (const factory of factories) {
  await t.test(`${factory.name}: search finds a user operation by its hash`, async (t) => {
    const store = await factory.open();
    t.teardown(() => store.close());
    const chain = await writeUserOperationChain(store);
    // block 4: one operation whose hash is its block's, one whose hash is its transaction's
    const b4 = block(4);
    const t5 = tx(b4, 0);
    const sameAsBlock = userOp(t5, 'x', { hash: b4.hash });
    const sameAsTx = userOp(t5, 'y', { hash: t5.hash, index: 1 });
    await store.writeBlocks([bundle(b4, { transactions: [t5], userOperations: [sameAsBlock, sameAsTx] })]);
    const v = validatingExplorer(createExplorer({ chains: { '1': store } }));
    const ex = v.explorer;

    for (const op of chain.ops) {
      const item = opItem(op.hash, op.timestamp);
      t.same(await search(t, ex, op.hash), [item], `…${op.hash.slice(-8)}: /search, the operation alone`);
      t.same(await quick(t, ex, op.hash), [item], `…${op.hash.slice(-8)}: /search/quick`);
      t.same(await redirect(t, ex, op.hash), { redirect: true, type: 'user_operation', parameter: op.hash }, `…${op.hash.slice(-8)}: check-redirect`);
    }
    const create = chain.byTag.create;
    if (create === undefined) throw new Error('fixture');
    const upper = `0x${create.hash.slice(2).toUpperCase()}`;
    t.same(await search(t, ex, ` ${upper} `, 'multichain'), [opItem(create.hash, create.timestamp)], 'upper case, padded, the multichain form');
    t.same(await quick(t, ex, upper, 'multichain'), [opItem(create.hash, create.timestamp)], 'quick: the multichain form');
    t.same(await redirect(t, ex, upper.slice(2), 'multichain'), { redirect: true, type: 'user_operation', parameter: create.hash }, 'check-redirect without 0x: the lower-case hash');

    t.same((await search(t, ex, b4.hash)).map((i) => i['type']), ['block', 'user_operation'], 'a block and an operation of one hash: the block first');
    t.same((await search(t, ex, t5.hash)).map((i) => i['type']), ['transaction', 'user_operation'], 'a transaction and an operation of one hash: the transaction first');
    t.same((await quick(t, ex, t5.hash)).map((i) => i['type']), ['transaction', 'user_operation'], 'quick: both, priority 0 each, in that order');
    t.same(await redirect(t, ex, b4.hash), { redirect: true, type: 'block', parameter: b4.hash }, 'check-redirect: the block before the operation');
    t.same(await redirect(t, ex, t5.hash), { redirect: true, type: 'transaction', parameter: t5.hash }, 'check-redirect: the transaction before the operation');

    const unknown = `0x${'ab'.repeat(32)}`;
    t.same(await search(t, ex, unknown), [], 'an unknown hash: nothing');
    t.same(await redirect(t, ex, unknown), { redirect: false, type: null, parameter: null }, 'an unknown hash: no redirect');
    t.same(v.failures, [], `${v.validated()} answers valid in our document`);
  });
}

await t.test('a store without user operations: search finds none', async (t) => {
  const store = createMemoryStore();
  const chain = await writeUserOperationChain(store);
  const lacking = new Proxy(store, {
    get: (target, key) => {
      if (key === 'getUserOperation' || key === 'listUserOperations') return undefined;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as DataSource;
  const ex = createExplorer({ chains: { '1': lacking } });
  const hash = chain.byTag.create?.hash ?? '';
  t.same(await search(t, ex, hash), [], '/search: nothing');
  t.same(await quick(t, ex, hash), [], '/search/quick: nothing');
  t.same(await redirect(t, ex, hash), { redirect: false, type: null, parameter: null }, 'check-redirect: no redirect');
});
