/**
 * GET /proxy/account-abstraction/{bundlers,paymasters,factories}[/{h}] through createExplorer,
 * on every store SCOUTKIT_STORES selects: the chain of userOperationChain.ts — each role's
 * parties with counts from the operations, (count DESC, address DESC), walked with page tokens
 * (each once), one by address, 404 `{code: 5}` for an address not in that role, a bad token
 * (400), both forms; a store without user operations; every answer validated against both
 * official documents.
 */
import t from 'tap';
import type { Test } from 'tap';
import { getAddress } from 'viem';
import { createMemoryStore } from '../../../adapters/memory/index.ts';
import type { Explorer } from '../../../lib/index.ts';
import { createExplorer, toJson } from '../../../lib/index.ts';
import type { DataSource } from '../../../lib/ports.ts';
import { officialSpecs, validateResponse } from '../../support/openapi.ts';
import { storeFactories } from '../../support/stores.ts';
import { addr } from '../../ports/records.ts';
import type { UserOperationChain } from './userOperationChain.ts';
import { ACCOUNT_1, BUNDLER_X, BUNDLER_Y, FACTORY, PAYMASTER, writeUserOperationChain } from './userOperationChain.ts';

const specs = await officialSpecs();
const factories = await storeFactories();
const P = '/proxy/account-abstraction';

type Item = Record<string, unknown> & { address: { hash: string } };
interface Body { items: Item[]; next_page_params: { page_token: string; page_size: number } | null }

async function get<B>(t: Test, ex: Explorer, path: string, template: string, query: Record<string, string> = {}, form: 'instance' | 'multichain' = 'instance'): Promise<{ status: number; body: B }> {
  const r = await ex.handle({ path: `${form === 'instance' ? '' : '/1'}/api/v2${path}`, query });
  const body = JSON.parse(toJson(r.body)) as B;
  // the documents list no 422 for these paths (Blockscout answers one from its parameter checks)
  if (specs !== null && r.status !== 422) t.same(validateResponse(specs, form === 'instance' ? 'instance' : 'pro', template, r.status, body), [], `${path} ${JSON.stringify(query)} ${r.status}: the official document (${form})`);
  return { status: r.status, body };
}

/** the expected items of each role, from the operations, in the list's order */
function expected(chain: UserOperationChain): Record<'bundlers' | 'paymasters' | 'factories', Record<string, unknown>[]> {
  const group = (key: (o: UserOperationChain['ops'][number]) => string | null) => {
    const m = new Map<string, { ops: number; bundles: Set<string> }>();
    for (const o of chain.ops) {
      const k = key(o);
      if (k === null) continue;
      const g = m.get(k) ?? { ops: 0, bundles: new Set<string>() };
      g.ops++;
      g.bundles.add(`${o.transactionHash}#${o.bundleIndex}`);
      m.set(k, g);
    }
    return [...m.entries()];
  };
  const order = <R extends { count: number; address: string }>(rows: R[]) => rows.sort((a, b) => b.count - a.count || (a.address < b.address ? 1 : -1));
  return {
    bundlers: order(group((o) => o.bundler).map(([a, g]) => ({ address: a, count: g.bundles.size, total_bundles: g.bundles.size, total_ops: g.ops }))).map(({ count: _c, ...r }) => r),
    paymasters: order(group((o) => o.paymaster).map(([a, g]) => ({ address: a, count: g.ops, total_ops: g.ops }))).map(({ count: _c, ...r }) => r),
    factories: order(group((o) => o.factory).map(([a, g]) => ({ address: a, count: g.ops, total_accounts: g.ops }))).map(({ count: _c, ...r }) => r),
  };
}
const plain = (items: readonly Item[]) => items.map((i) => ({ ...i, address: i.address.hash.toLowerCase() }));

for (const factory of factories) {
  await t.test(`${factory.name}: bundlers, paymasters, factories`, async (t) => {
    const store = await factory.open();
    t.teardown(() => store.close());
    const chain = await writeUserOperationChain(store);
    const ex = createExplorer({ chains: { '1': store } });
    const want = expected(chain);
    t.equal(want.bundlers.length, 2, 'two bundlers');
    const singular = { bundlers: 'bundler', paymasters: 'paymaster', factories: 'factory' } as const;
    const known = { bundlers: BUNDLER_Y, paymasters: PAYMASTER, factories: FACTORY } as const;
    for (const plural of ['bundlers', 'paymasters', 'factories'] as const) {
      const template = `${P}/${plural}`;
      const first = await get<Body>(t, ex, template, template);
      t.same(plain(first.body.items), want[plural], `${plural}: counts from the operations, most first`);
      t.equal(first.body.next_page_params, null);
      const seen: Record<string, unknown>[] = [];
      let next: Record<string, string> = { page_size: '1' };
      for (let i = 0; i < 10; i++) {
        const { body } = await get<Body>(t, ex, template, template, next);
        seen.push(...plain(body.items));
        if (body.next_page_params === null) break;
        t.match(body.next_page_params.page_token, /^\d+,0x[0-9a-fA-F]{40}$/, `${plural}: the token "<count>,<address>"`);
        next = { page_token: body.next_page_params.page_token, page_size: String(body.next_page_params.page_size) };
      }
      t.same(seen, want[plural], `${plural}: page_size 1 gives each once`);
      t.same(plain((await get<Body>(t, ex, template, template, {}, 'multichain')).body.items), want[plural], `${plural}: the multichain form`);

      const oneTemplate = `${template}/{address_hash_param}`;
      const one = await get<Item>(t, ex, `${template}/${known[plural]}`, oneTemplate);
      t.same([one.status, plain([one.body])[0]], [200, want[plural].find((r) => r.address === known[plural])], `${singular[plural]} by address`);
      t.equal(one.body.address.hash, getAddress(known[plural]), 'checksummed in the Address object');
      const missing = await get<Record<string, unknown>>(t, ex, `${template}/${ACCOUNT_1}`, oneTemplate);
      t.same([missing.status, missing.body], [404, { code: 5, message: `${singular[plural]} not found` }], `${singular[plural]}: an address in no such role → 404`);
      const bad = await get<Record<string, unknown>>(t, ex, `${template}/0x12`, oneTemplate);
      t.equal(bad.status, 422, `${singular[plural]}: a malformed address → 422`);
      const badToken = await get<Record<string, unknown>>(t, ex, template, template, { page_token: `1,${addr(1)}x` });
      t.same([badToken.status, badToken.body], [400, { code: 3, message: `invalid format '1,${addr(1)}x' for page_token: invalid format '${addr(1)}x' in part #0` }], `${plural}: a bad token → 400`);
    }
    t.same(plain((await get<Body>(t, ex, `${P}/bundlers`, `${P}/bundlers`)).body.items).map((b) => b.address), [BUNDLER_X, BUNDLER_Y], 'the bundler of more bundles first');
  });
}

await t.test('a store without user operations: empty pages and 404s', async (t) => {
  const store = createMemoryStore();
  await writeUserOperationChain(store);
  const hidden = new Set<PropertyKey>(['listUserOperationParties', 'getUserOperationParties']);
  const lacking = new Proxy(store, {
    get: (target, key) => {
      if (hidden.has(key)) return undefined;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as DataSource;
  const ex = createExplorer({ chains: { '1': lacking } });
  for (const plural of ['bundlers', 'paymasters', 'factories']) {
    t.same((await get<Body>(t, ex, `${P}/${plural}`, `${P}/${plural}`)).body, { items: [], next_page_params: null }, `${plural}: empty`);
    t.equal((await get<Body>(t, ex, `${P}/${plural}/${BUNDLER_X}`, `${P}/${plural}/{address_hash_param}`)).status, 404, `${plural}/{h}: 404`);
  }
});
