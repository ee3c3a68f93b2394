/**
 * GET /proxy/account-abstraction/operations through createExplorer, on every store
 * SCOUTKIT_STORES selects: the chain of userOperationChain.ts walked with page tokens (every
 * operation exactly once, in (block DESC, hash DESC), also while a block arrives between pages),
 * each filter, `bundle_index` only with `transaction_hash`, the parameter checks (422), a bad
 * page token (400 `{code: 3}`), both forms; every answer validated against both official
 * documents. A store without user operations: an empty page.
 */
import t from 'tap';
import type { Test } from 'tap';
import { getAddress } from 'viem';
import { createMemoryStore } from '../../../adapters/memory/index.ts';
import type { Explorer } from '../../../lib/index.ts';
import { createExplorer, toJson } from '../../../lib/index.ts';
import type { DataSource } from '../../../lib/ports.ts';
import { ENTRY_POINT_V06 } from '../../../lib/userops/index.ts';
import { officialSpecs, validateResponse } from '../../support/openapi.ts';
import { storeFactories } from '../../support/stores.ts';
import { block, bundle, tx } from '../../ports/records.ts';
import { ACCOUNT_2, BUNDLER_Y, FACTORY, PAYMASTER, userOp, writeUserOperationChain } from './userOperationChain.ts';

const TEMPLATE = '/proxy/account-abstraction/operations';
const specs = await officialSpecs();
const factories = await storeFactories();

interface Item { hash: string; address: { hash: string }; fee: string; block_number: string; status: boolean }
interface Body { items: Item[]; next_page_params: { page_token: string; page_size: number } | null }

async function list(t: Test, ex: Explorer, query: Record<string, string> = {}, form: 'instance' | 'multichain' = 'instance'): Promise<{ status: number; body: Body }> {
  const r = await ex.handle({ path: `${form === 'instance' ? '' : '/1'}/api/v2${TEMPLATE}`, query });
  const body = JSON.parse(toJson(r.body)) as Body;
  // the documents list no 422 for these paths (Blockscout answers one from its parameter checks)
  if (specs !== null && r.status !== 422) t.same(validateResponse(specs, form === 'instance' ? 'instance' : 'pro', TEMPLATE, r.status, body), [], `${JSON.stringify(query)} ${r.status}: the official document (${form})`);
  return { status: r.status, body };
}

/** every page from `query`, following the page tokens; `between` runs after the first page */
async function walk(t: Test, ex: Explorer, query: Record<string, string>, between?: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  let next: Record<string, string> = {};
  for (let i = 0; i < 50; i++) {
    const { status, body } = await list(t, ex, { ...query, ...next });
    t.equal(status, 200);
    seen.push(...body.items.map((o) => o.hash));
    if (i === 0 && between !== undefined) await between();
    if (body.next_page_params === null) return seen;
    next = { page_token: body.next_page_params.page_token, page_size: String(body.next_page_params.page_size) };
  }
  throw new Error('no last page');
}

for (const factory of factories) {
  await t.test(`${factory.name}: user operations`, async (t) => {
    const store = await factory.open();
    t.teardown(() => store.close());
    const chain = await writeUserOperationChain(store);
    const ex = createExplorer({ chains: { '1': store } });
    const all = chain.ops.map((o) => o.hash);

    const first = await list(t, ex);
    t.same(first.body.items.map((o) => o.hash), all, 'every operation, (block DESC, hash DESC), one page');
    t.equal(first.body.next_page_params, null);
    const top = chain.ops[0];
    t.match(first.body.items[0], { address: { hash: getAddress(top?.sender ?? '0x') }, fee: String((top?.gasPrice ?? 0n) * (top?.gasUsed ?? 0n)), block_number: String(top?.blockNumber) }, 'the list shape');

    const two = await list(t, ex, { page_size: '2' });
    t.same(two.body.next_page_params, { page_token: `${chain.ops[2]?.blockNumber},${chain.ops[2]?.hash}`, page_size: 2 }, "the token: the next page's first operation");
    for (const size of ['1', '2', '3']) t.same(await walk(t, ex, { page_size: size }), all, `page_size ${size}: every operation exactly once`);

    const filtered = async (q: Record<string, string>) => (await list(t, ex, q)).body.items.map((o) => o.hash);
    const expect = (f: (o: (typeof chain.ops)[number]) => boolean) => chain.ops.filter(f).map((o) => o.hash);
    t.same(await filtered({ sender: ACCOUNT_2.toUpperCase().replace('0X', '0x') }), expect((o) => o.sender === ACCOUNT_2), 'sender (any case)');
    t.same(await filtered({ bundler: BUNDLER_Y }), expect((o) => o.bundler === BUNDLER_Y), 'bundler');
    t.same(await filtered({ paymaster: PAYMASTER }), expect((o) => o.paymaster === PAYMASTER), 'paymaster');
    t.same(await filtered({ factory: FACTORY }), expect((o) => o.factory === FACTORY), 'factory');
    t.same(await filtered({ entry_point: ENTRY_POINT_V06 }), expect((o) => o.entryPoint === ENTRY_POINT_V06), 'entry_point');
    t.same(await filtered({ block_number: '2' }), expect((o) => o.blockNumber === 2), 'block_number');
    t.same(await filtered({ transaction_hash: chain.twoBundles }), expect((o) => o.transactionHash === chain.twoBundles), 'transaction_hash');
    t.same(await filtered({ transaction_hash: chain.twoBundles, bundle_index: '1' }), expect((o) => o.transactionHash === chain.twoBundles && o.bundleIndex === 1), 'transaction_hash and bundle_index');
    t.same(await filtered({ bundle_index: '1' }), all, 'bundle_index alone is ignored (as Blockscout)');
    t.same(await filtered({ sender: ACCOUNT_2, block_number: '3' }), expect((o) => o.sender === ACCOUNT_2 && o.blockNumber === 3), 'filters together');
    t.same(await filtered({ block_number: '99' }), [], 'nothing matches: an empty page');
    t.same(await walk(t, ex, { sender: ACCOUNT_2, page_size: '1' }), expect((o) => o.sender === ACCOUNT_2), 'a filter walked page by page');

    t.same((await list(t, ex, { items_count: '1' })).body.items.length, all.length, "the Pro API's items_count: accepted, the page size is page_size's");
    const multi = await list(t, ex, { page_size: '2' }, 'multichain');
    t.same(multi.body.items.map((o) => o.hash), all.slice(0, 2), 'the multichain form');

    for (const [q, pointer] of [[{ page_size: '0' }, 'page_size'], [{ page_size: '51' }, 'page_size'], [{ sender: '0x12' }, 'sender'], [{ block_number: '-1' }, 'block_number'], [{ transaction_hash: '0xzz' }, 'transaction_hash']] as const) {
      const r = await list(t, ex, q);
      t.match([r.status, r.body], [422, { errors: [{ title: 'Invalid value', source: { pointer: `/${pointer}` } }] }], `${JSON.stringify(q)} → 422`);
    }
    const badToken = await list(t, ex, { page_token: 'abc' });
    t.same([badToken.status, badToken.body], [400, { code: 3, message: "invalid format 'abc' for page_token: invalid format, expected 2 comma-separated values" }], 'a token of one part → 400');
    const badPart = await list(t, ex, { page_token: '2,0x12' });
    t.same([badPart.status, badPart.body], [400, { code: 3, message: "invalid format '2,0x12' for page_token: invalid format '0x12' in part #0" }], 'a token with a bad hash → 400');

    // a block arrives between two pages: the walk still gives each earlier operation once
    const b4 = block(4);
    const t5 = tx(b4, 0);
    const walked = await walk(t, ex, { page_size: '2' }, async () => {
      await store.writeBlocks([bundle(b4, { transactions: [t5], userOperations: [userOp(t5, 'newest', { nonce: 9n })] })]);
    });
    t.same(walked, all, 'a block written between pages: every earlier operation exactly once');
    t.equal((await list(t, ex)).body.items.length, all.length + 1, 'the new one on a new walk');
  });
}

await t.test('a store without user operations: an empty page', async (t) => {
  const store = createMemoryStore();
  await writeUserOperationChain(store);
  const lacking = new Proxy(store, {
    get: (target, key) => {
      if (key === 'getUserOperation' || key === 'listUserOperations') return undefined;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as DataSource;
  const r = await list(t, createExplorer({ chains: { '1': lacking } }));
  t.same([r.status, r.body], [200, { items: [], next_page_params: null }]);
});
