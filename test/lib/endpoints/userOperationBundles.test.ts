/**
 * GET /proxy/account-abstraction/bundles and /status through createExplorer, on every store
 * SCOUTKIT_STORES selects: the chain of userOperationChain.ts — bundles (a transaction with two)
 * and their counts walked with page tokens (each once), the bundler and entry_point filters, a
 * bad token (400), page_size checks (422), both forms; the status of a store with user
 * operations and of one without; every answer validated against both official documents.
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
import type { UserOperationChain } from './userOperationChain.ts';
import { BUNDLER_X, BUNDLER_Y, writeUserOperationChain } from './userOperationChain.ts';

const BUNDLES = '/proxy/account-abstraction/bundles';
const STATUS = '/proxy/account-abstraction/status';
const specs = await officialSpecs();
const factories = await storeFactories();

interface Bundle { transaction_hash: string; bundle_index: number; total_ops: number; bundler: { hash: string }; block_number: string }
interface Body { items: Bundle[]; next_page_params: { page_token: string; page_size: number } | null }

async function get<B>(t: Test, ex: Explorer, template: string, query: Record<string, string> = {}, form: 'instance' | 'multichain' = 'instance'): Promise<{ status: number; body: B }> {
  const r = await ex.handle({ path: `${form === 'instance' ? '' : '/1'}/api/v2${template}`, query });
  const body = JSON.parse(toJson(r.body)) as B;
  // the documents list no 422 for these paths (Blockscout answers one from its parameter checks)
  if (specs !== null && r.status !== 422) t.same(validateResponse(specs, form === 'instance' ? 'instance' : 'pro', template, r.status, body), [], `${template} ${JSON.stringify(query)} ${r.status}: the official document (${form})`);
  return { status: r.status, body };
}

/** the chain's bundles as `tx#index×count`, (block DESC, transaction DESC, index DESC), of the operations `keep` keeps */
function bundlesOf(chain: UserOperationChain, keep: (o: UserOperationChain['ops'][number]) => boolean = () => true): string[] {
  const counts = new Map<string, { block: number; tx: string; index: number; n: number }>();
  for (const o of chain.ops) {
    const key = `${o.transactionHash}#${o.bundleIndex}`;
    const b = counts.get(key) ?? { block: o.blockNumber, tx: o.transactionHash, index: o.bundleIndex, n: 0 };
    counts.set(key, { ...b, n: b.n + 1 });
  }
  const matching = new Set(chain.ops.filter(keep).map((o) => `${o.transactionHash}#${o.bundleIndex}`));
  return [...counts.entries()]
    .filter(([k]) => matching.has(k))
    .map(([, b]) => b)
    .sort((a, b) => b.block - a.block || (a.tx < b.tx ? 1 : a.tx > b.tx ? -1 : 0) || b.index - a.index)
    .map((b) => `${b.tx}#${b.index}×${b.n}`);
}
const shown = (items: readonly Bundle[]) => items.map((b) => `${b.transaction_hash}#${b.bundle_index}×${b.total_ops}`);

for (const factory of factories) {
  await t.test(`${factory.name}: bundles and status`, async (t) => {
    const store = await factory.open();
    t.teardown(() => store.close());
    const chain = await writeUserOperationChain(store);
    const ex = createExplorer({ chains: { '1': store } });
    const all = bundlesOf(chain);
    t.equal(all.length, 5, 'five bundles (one transaction holds two)');

    const first = await get<Body>(t, ex, BUNDLES);
    t.same(shown(first.body.items), all, 'every bundle with its count, newest first');
    t.equal(first.body.next_page_params, null);
    t.match(first.body.items.find((b) => b.transaction_hash === chain.twoBundles && b.bundle_index === 1), { bundler: { hash: getAddress(BUNDLER_Y) }, block_number: '2', total_ops: 1 }, 'the bundle shape');

    for (const size of [1, 2, 3]) {
      const seen: string[] = [];
      let next: Record<string, string> = { page_size: String(size) };
      for (let i = 0; i < 20; i++) {
        const { body } = await get<Body>(t, ex, BUNDLES, next);
        seen.push(...shown(body.items));
        if (body.next_page_params === null) break;
        next = { page_token: body.next_page_params.page_token, page_size: String(body.next_page_params.page_size) };
      }
      t.same(seen, all, `page_size ${size}: each bundle once`);
    }
    const two = await get<Body>(t, ex, BUNDLES, { page_size: '2' });
    t.match(two.body.next_page_params, { page_token: /^\d+,0x[0-9a-f]{64},\d+$/, page_size: 2 }, 'the token: "<block>,<transaction>,<bundle_index>"');

    t.same(shown((await get<Body>(t, ex, BUNDLES, { bundler: BUNDLER_X })).body.items), bundlesOf(chain, (o) => o.bundler === BUNDLER_X), 'bundler');
    t.same(shown((await get<Body>(t, ex, BUNDLES, { entry_point: ENTRY_POINT_V06 })).body.items), bundlesOf(chain, (o) => o.entryPoint === ENTRY_POINT_V06), 'entry_point');
    t.same(shown((await get<Body>(t, ex, BUNDLES, { page_size: '2' }, 'multichain')).body.items), all.slice(0, 2), 'the multichain form');

    const bad = await get<Record<string, unknown>>(t, ex, BUNDLES, { page_token: `2,${chain.twoBundles}` });
    t.same([bad.status, bad.body], [400, { code: 3, message: `invalid format '2,${chain.twoBundles}' for page_token: invalid format, expected 3 comma-separated values` }], 'a bad token → 400');
    const big = await get<Record<string, unknown>>(t, ex, BUNDLES, { page_size: '51' });
    t.equal(big.status, 422, 'page_size 51 → 422');

    for (const form of ['instance', 'multichain'] as const) {
      const status = await get<Record<string, unknown>>(t, ex, STATUS, {}, form);
      const task = { enabled: true, live: true, past_db_logs_indexing_finished: true, past_rpc_logs_indexing_finished: true };
      t.same([status.status, status.body], [200, { finished_past_indexing: true, v06: task, v07_v08: task }], `status (${form})`);
    }
  });
}

await t.test('a store without user operations: no bundles, both tasks disabled', async (t) => {
  const store = createMemoryStore();
  await writeUserOperationChain(store);
  const hidden = new Set<PropertyKey>(['getUserOperation', 'listUserOperations', 'listUserOperationBundles']);
  const lacking = new Proxy(store, {
    get: (target, key) => {
      if (hidden.has(key)) return undefined;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as DataSource;
  const ex = createExplorer({ chains: { '1': lacking } });
  t.same((await get<Body>(t, ex, BUNDLES)).body, { items: [], next_page_params: null });
  const off = { enabled: false, live: false, past_db_logs_indexing_finished: false, past_rpc_logs_indexing_finished: false };
  t.same((await get<Record<string, unknown>>(t, ex, STATUS)).body, { finished_past_indexing: true, v06: off, v07_v08: off });
});
