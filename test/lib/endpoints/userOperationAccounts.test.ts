/**
 * GET /proxy/account-abstraction/accounts through createExplorer, on every store SCOUTKIT_STORES
 * selects: the chain of userOperationChain.ts and a block more (three accounts, two created by
 * FACTORY, one by a second factory) — the accounts in address order with counts and creations
 * found from the operations, walked at page sizes 1-3 with page tokens (each once; also with a
 * block written between pages), the `factory` filter, both forms, bad tokens (400), bad
 * parameters (422); a store without user operations (an empty page) and one without the list
 * (501, as our document says); every answer validated against both official documents.
 */
import t from 'tap';
import type { Test } from 'tap';
import { getAddress } from 'viem';
import { createMemoryStore } from '../../../adapters/memory/index.ts';
import type { UserOperationRecord } from '../../../lib/domain/userOperations.ts';
import type { Explorer } from '../../../lib/index.ts';
import { createExplorer, hex, toJson } from '../../../lib/index.ts';
import type { DataSink, DataSource } from '../../../lib/ports.ts';
import { officialSpecs, validateResponse } from '../../support/openapi.ts';
import { validateOurs } from '../../support/openapiOurs.ts';
import { storeFactories } from '../../support/stores.ts';
import { addr, block, bundle, tx } from '../../ports/records.ts';
import { ACCOUNT_1, ACCOUNT_2, BUNDLER_X, FACTORY, userOp, writeUserOperationChain } from './userOperationChain.ts';

const TEMPLATE = '/proxy/account-abstraction/accounts';
const specs = await officialSpecs();
const factories = await storeFactories();

const FACTORY_2 = addr(0xfa02);
/** addresses around the chain's two accounts, so pages interleave them */
const [ACCOUNT_0, ACCOUNT_3, ACCOUNT_4] = [addr(0xacc0), addr(0xacc3), addr(0xacc7)];
const LATE = addr(0xacc9);

interface Item {
  address: { hash: string };
  factory: { hash: string } | null;
  creation_transaction_hash: string | null;
  creation_op_hash: string | null;
  creation_timestamp: string | null;
  total_ops: number;
}
interface Body {
  items: Item[];
  next_page_params: { page_token: string; page_size: number } | null;
}

async function get<B>(t: Test, ex: Explorer, query: Record<string, string> = {}, form: 'instance' | 'multichain' = 'instance'): Promise<{ status: number; body: B }> {
  const r = await ex.handle({ path: `${form === 'instance' ? '' : '/1'}/api/v2${TEMPLATE}`, query });
  const body = JSON.parse(toJson(r.body)) as B;
  // the documents list no 422 for these paths (Blockscout answers one from its parameter checks)
  if (specs !== null && r.status !== 422) t.same(validateResponse(specs, form === 'instance' ? 'instance' : 'pro', TEMPLATE, r.status, body), [], `${JSON.stringify(query)} ${r.status}: the official document (${form})`);
  return { status: r.status, body };
}

/** block 4: ACCOUNT_0 and ACCOUNT_3 created by their first operations, ACCOUNT_4 by FACTORY_2 */
async function writeMore(store: DataSink): Promise<UserOperationRecord[]> {
  const b4 = block(4);
  const t4 = tx(b4, 0);
  const ops = [
    userOp(t4, 'acc0', { sender: ACCOUNT_0, factory: FACTORY, initCode: hex(`${FACTORY}01`) }),
    userOp(t4, 'acc3', { sender: ACCOUNT_3, index: 1, factory: FACTORY, initCode: hex(`${FACTORY}02`) }),
    userOp(t4, 'acc4', { sender: ACCOUNT_4, index: 2, factory: FACTORY_2, initCode: hex(`${FACTORY_2}03`) }),
    userOp(t4, 'acc1again', { sender: ACCOUNT_1, index: 3, nonce: 9n }),
  ];
  await store.writeBlocks([bundle(b4, { transactions: [t4], userOperations: ops })]);
  return ops;
}

/** the items expected from the operations: senders in address order, with `factory` those of an operation carrying it */
function expected(ops: readonly UserOperationRecord[], factory?: string): Record<string, unknown>[] {
  const senders = [...new Set(ops.map((o) => o.sender))].filter((a) => factory === undefined || ops.some((o) => o.sender === a && o.factory === factory)).sort();
  return senders.map((address) => {
    const mine = ops.filter((o) => o.sender === address);
    const [c] = mine.filter((o) => o.factory !== null).sort((a, b) => a.blockNumber - b.blockNumber || (a.hash < b.hash ? -1 : 1));
    return {
      address,
      factory: c?.factory ?? null,
      creation_transaction_hash: c?.transactionHash ?? null,
      creation_op_hash: c?.hash ?? null,
      creation_timestamp: c === undefined ? null : new Date(c.timestamp * 1000).toISOString().replace('.000Z', '.000000Z'),
      total_ops: mine.length,
    };
  });
}
const plain = (items: readonly Item[]) => items.map((i) => ({ ...i, address: i.address.hash.toLowerCase(), factory: i.factory === null ? null : i.factory.hash.toLowerCase() }));

/** every page from the first, at this size; `between` runs after the first page */
async function walk(t: Test, ex: Explorer, size: number, query: Record<string, string> = {}, between?: () => Promise<void>): Promise<Record<string, unknown>[]> {
  const seen: Item[] = [];
  let next: Record<string, string> = { ...query, page_size: String(size) };
  for (let i = 0; i < 20; i++) {
    const { status, body } = await get<Body>(t, ex, next);
    if (status !== 200) throw new Error(`${status} ${JSON.stringify(body)}`);
    t.ok(body.items.length <= size, `at most ${size} a page`);
    seen.push(...body.items);
    if (i === 0 && between !== undefined) await between();
    if (body.next_page_params === null) return plain(seen);
    t.match(body.next_page_params, { page_token: /^0x[0-9a-fA-F]{40}$/, page_size: size }, 'the token "<address>" and the size');
    t.equal(body.next_page_params.page_token, getAddress(body.next_page_params.page_token), 'checksummed');
    next = { ...query, page_token: body.next_page_params.page_token, page_size: String(body.next_page_params.page_size) };
  }
  throw new Error('the walk did not end');
}

for (const factory of factories) {
  await t.test(`${factory.name}: accounts`, async (t) => {
    const store = await factory.open();
    t.teardown(() => store.close());
    const chain = await writeUserOperationChain(store);
    const ops = [...chain.ops, ...(await writeMore(store))];
    const ex = createExplorer({ chains: { '1': store } });
    const all = expected(ops);
    t.equal(all.length, 5, 'five accounts');
    t.same(
      all.map((a) => a.address),
      [ACCOUNT_0, ACCOUNT_1, ACCOUNT_2, ACCOUNT_3, ACCOUNT_4],
      'in address order',
    );
    t.match(all.find((a) => a.address === ACCOUNT_1), { factory: FACTORY, creation_op_hash: chain.byTag.create?.hash, total_ops: 5 }, 'ACCOUNT_1: created by its first operation, five operations');
    t.match(all.find((a) => a.address === ACCOUNT_2), { factory: null, creation_op_hash: null, total_ops: 3 }, 'ACCOUNT_2: no creation');

    for (const form of ['instance', 'multichain'] as const) {
      const first = await get<Body>(t, ex, {}, form);
      t.same([first.status, plain(first.body.items), first.body.next_page_params], [200, all, null], `every account, counts and creations from the operations (${form})`);
      const one = first.body.items[1];
      t.equal(one?.address.hash, getAddress(ACCOUNT_1), `an Address object, checksummed (${form})`);
      t.equal(one?.factory?.hash, getAddress(FACTORY), 'the factory too');
    }
    for (const size of [1, 2, 3]) t.same(await walk(t, ex, size), all, `page_size ${size}: each account once, in order`);
    for (const f of [FACTORY, FACTORY_2, BUNDLER_X]) {
      const want = expected(ops, f);
      t.same(plain((await get<Body>(t, ex, { factory: f })).body.items), want, `factory ${f}: ${want.length} accounts`);
      for (const size of [1, 2]) t.same(await walk(t, ex, size, { factory: getAddress(f) }), want, `factory ${f}, page_size ${size}`);
    }
    t.same(
      expected(ops, FACTORY).map((a) => a.address),
      [ACCOUNT_0, ACCOUNT_1, ACCOUNT_3],
      'FACTORY created three',
    );

    // a token names the first account of its page (inclusive), also an address between accounts
    const from2 = await get<Body>(t, ex, { page_token: getAddress(ACCOUNT_2), page_size: '2' });
    t.same(plain(from2.body.items), all.slice(2, 4), 'from ACCOUNT_2 on');
    t.same(from2.body.next_page_params, { page_token: getAddress(ACCOUNT_4), page_size: 2 });
    t.same(plain((await get<Body>(t, ex, { page_token: addr(0xacc5).toUpperCase().replace('0X', '0x') })).body.items), all.slice(4), 'a token between two accounts (any case): from the next');
    t.same(plain((await get<Body>(t, ex, { page_token: addr(0) })).body.items), all, 'the zero address: from the start');
    t.same((await get<Body>(t, ex, { page_token: `0x${'f'.repeat(40)}` })).body, { items: [], next_page_params: null }, 'past the last: empty');

    // a block written between pages: its new account comes (after the cursor), nothing twice
    const late = async () => {
      const b5 = block(5);
      const t5 = tx(b5, 0);
      const more = [userOp(t5, 'late', { sender: LATE, factory: FACTORY_2, initCode: hex(`${FACTORY_2}04`) }), userOp(t5, 'late0', { sender: ACCOUNT_0, index: 1, nonce: 1n })];
      ops.push(...more);
      await store.writeBlocks([bundle(b5, { transactions: [t5], userOperations: more })]);
    };
    const during = await walk(t, ex, 2, {}, late);
    t.same(
      during.map((a) => a.address),
      [ACCOUNT_0, ACCOUNT_1, ACCOUNT_2, ACCOUNT_3, ACCOUNT_4, LATE],
      'a block between pages: each account once, the new one included',
    );
    t.same(during.slice(2), expected(ops).slice(2), 'the pages after the block count it');

    for (const token of ['0x12', `${ACCOUNT_1},1`, `${ACCOUNT_1}x`, 'zz']) {
      const bad = await get<Record<string, unknown>>(t, ex, { page_token: token });
      t.equal(bad.status, 400, `token ${JSON.stringify(token)} → 400`);
      t.match(bad.body, { code: 3, message: new RegExp(`^invalid format '${token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}' for page_token: `) });
    }
    for (const query of [{ factory: '0x12' }, { factory: 'nope' }, { page_size: '0' }, { page_size: '51' }, { page_size: 'x' }] as Record<string, string>[]) {
      t.equal((await get(t, ex, query)).status, 422, `${JSON.stringify(query)} → 422`);
    }
    t.equal((await get<Body>(t, ex, { page_size: '50', items_count: '50' })).status, 200, 'the Pro API items_count is accepted');
  });
}

/** the store with these members hidden (every other member bound to the store itself) */
function hiding(store: DataSource, members: readonly PropertyKey[]): DataSource {
  const hidden = new Set<PropertyKey>(members);
  return new Proxy(store, {
    get: (target, key) => {
      if (hidden.has(key)) return undefined;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

await t.test('a store without user operations: an empty page; one without the list: 501', async (t) => {
  const store = createMemoryStore();
  await writeUserOperationChain(store);
  const family = ['getUserOperation', 'listUserOperations', 'listUserOperationBundles', 'listUserOperationParties', 'getUserOperationParties', 'listUserOperationAccounts'];
  const none = createExplorer({ chains: { '1': hiding(store, family) } });
  for (const query of [{}, { factory: FACTORY }, { page_token: getAddress(ACCOUNT_2), page_size: '1' }] as Record<string, string>[]) {
    const r = await get<Body>(t, none, query);
    t.same([r.status, r.body], [200, { items: [], next_page_params: null }], `no user operations ${JSON.stringify(query)}: an empty page`);
  }
  const r = await none.handle({ path: `/api/v2${TEMPLATE}`, query: { page_token: 'bad' } });
  t.equal(r.status, 400, 'a bad token is still a 400');

  const lacking = createExplorer({ chains: { '1': hiding(store, ['listUserOperationAccounts']) } });
  for (const form of ['instance', 'multichain'] as const) {
    const answer = await lacking.handle({ path: `${form === 'instance' ? '' : '/1'}/api/v2${TEMPLATE}` });
    const body = JSON.parse(toJson(answer.body)) as unknown;
    t.same([answer.status, body], [501, { message: 'ERC-4337 accounts not available from this store' }], `user operations without the accounts' list: 501 (${form})`);
    t.same(validateOurs(form, TEMPLATE, 501, body), [], `our document describes it (${form})`);
  }
  t.equal((await lacking.handle({ path: `/api/v2${TEMPLATE}/${ACCOUNT_1}` })).status, 200, 'the account itself still answers');
});
