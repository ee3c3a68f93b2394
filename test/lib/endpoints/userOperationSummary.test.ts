/**
 * GET /proxy/account-abstraction/operations/{h}/summary through createExplorer, on every store
 * SCOUTKIT_STORES selects: one bundle transaction holding two operations, each with a token
 * transfer in its own log window — each operation's summary says its own transfer and not the
 * other's, a failed operation is still summarized, `just_request_body` names the execute target
 * and call data and only the window's transfers and logs; 404 `{code: 5}` for an unknown hash and
 * from a store without user operations, 422 for a malformed one; both forms, validated against
 * both official documents.
 */
import t from 'tap';
import type { Test } from 'tap';
import { getAddress } from 'viem';
import { createMemoryStore } from '../../../adapters/memory/index.ts';
import type { Explorer } from '../../../lib/index.ts';
import { createExplorer, toJson } from '../../../lib/index.ts';
import { ENTRY_POINT_V07 } from '../../../lib/userops/index.ts';
import { officialSpecs, validateResponse } from '../../support/openapi.ts';
import { storeFactories } from '../../support/stores.ts';
import { addr, block, bundle, h32, log, token, transfer, tx } from '../../ports/records.ts';
import { ACCOUNT_1, ACCOUNT_2, EXECUTE, FRIEND, INNER, TOKEN, userOp } from './userOperationChain.ts';

const TEMPLATE = '/proxy/account-abstraction/operations/{operation_hash_param}/summary';
const OTHER = addr(0x0e0e);
const specs = await officialSpecs();

const b1 = block(1);
const t1 = tx(b1, 0, { to: ENTRY_POINT_V07 });
// log 0: BeforeExecution; 1: the first operation's transfer; 2: its UserOperationEvent; 3: the second's transfer; 4: its event
const first = userOp(t1, 'first', { userLogsStartIndex: 1, userLogsCount: 1 });
const second = userOp(t1, 'second', { sender: ACCOUNT_2, index: 1, status: false, userLogsStartIndex: 3, userLogsCount: 1 });
const writeChain = async (store: { writeBlocks(b: readonly ReturnType<typeof bundle>[]): Promise<unknown> }): Promise<void> => {
  await store.writeBlocks([
    bundle(b1, {
      transactions: [t1],
      logs: [0, 1, 2, 3, 4].map((i) => log(t1, i, i === 1 || i === 3 ? TOKEN : ENTRY_POINT_V07)),
      tokenTransfers: [transfer(t1, 1, TOKEN, 'ERC-20', ACCOUNT_1, FRIEND, [], 5n), transfer(t1, 3, TOKEN, 'ERC-20', ACCOUNT_2, OTHER, [], 7n)],
      tokens: [token(TOKEN, 'ERC-20', 'Scout')],
      userOperations: [first, second],
    }),
  ]);
};

type Json = Record<string, unknown>;
async function get(t: Test, ex: Explorer, hash: string, query: Record<string, string> = {}, form: 'instance' | 'multichain' = 'instance'): Promise<{ status: number; body: Json }> {
  const r = await ex.handle({ path: `${form === 'instance' ? '' : '/1'}/api/v2/proxy/account-abstraction/operations/${hash}/summary`, query });
  const body = JSON.parse(toJson(r.body)) as Json;
  // every status, the 422 too: this path's documents list it (the other account-abstraction paths do not)
  if (specs !== null) t.same(validateResponse(specs, form === 'instance' ? 'instance' : 'pro', TEMPLATE, r.status, body), [], `${hash.slice(0, 12)} ${r.status}: the official document (${form})`);
  return { status: r.status, body };
}

for (const factory of await storeFactories()) {
  await t.test(`${factory.name}: a user operation's summary`, async (t) => {
    const store = await factory.open();
    t.teardown(() => store.close());
    await writeChain(store);
    const ex = createExplorer({ chains: { '1': store } });
    for (const form of ['instance', 'multichain'] as const) {
      const own = await get(t, ex, first.hash, {}, form);
      t.equal(own.status, 200, `${form}: 200`);
      const text = JSON.stringify(own.body);
      t.match(own.body, { success: true, data: { summaries: [] } }, `${form}: Summary's shape`);
      t.ok(((own.body['data'] as { summaries: unknown[] }).summaries).length > 0, `${form}: a summary`);
      t.ok(text.includes(getAddress(FRIEND)), `${form}: its own transfer's receiver`);
      t.notOk(text.includes(getAddress(OTHER)), `${form}: not the other operation's`);
    }
    const failed = await get(t, ex, second.hash);
    t.equal(failed.status, 200, 'a failed operation: 200');
    t.ok(JSON.stringify(failed.body).includes(getAddress(OTHER)), 'still summarized: its own transfer');

    const request = await get(t, ex, first.hash, { just_request_body: 'true' });
    t.equal(request.status, 200);
    t.match(request.body, {
      data: { hash: first.hash, from: { hash: getAddress(ACCOUNT_1) }, to: { hash: getAddress(TOKEN) }, raw_input: INNER, type: 0, value: '0', status: 'ok', transaction_types: [], internal_transactions: [] },
      logs_data: { items: [{ index: 1 }] },
      chain_id: 1,
    }, 'just_request_body: the execute target and call data, the window');
    const data = request.body['data'] as { token_transfers: readonly unknown[]; method: string | null };
    t.equal(data.token_transfers.length, 1, 'one token transfer: the window');
    t.equal(data.method, 'transfer', 'the executed method');
    t.match((await get(t, ex, second.hash, { just_request_body: 'true' })).body, { data: { status: 'error' } }, 'a failed operation: status error');

    t.same(await get(t, ex, h32('nothing')), { status: 404, body: { code: 5, message: 'user operation not found' } }, 'unknown: 404 {code: 5}');
    t.equal((await get(t, ex, '0x1234')).status, 422, 'malformed: 422');
    t.equal(EXECUTE.slice(0, 10) !== INNER.slice(0, 10), true, 'the call data is an execute');
  });
}

t.test('a store without user operations: 404 {code: 5}', async (t) => {
  const store = createMemoryStore();
  await writeChain(store);
  const lacking = new Proxy(store, {
    get: (target, key) => {
      if (key === 'getUserOperation') return undefined;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const ex = createExplorer({ chains: { '1': lacking } });
  t.same(await get(t, ex, first.hash), { status: 404, body: { code: 5, message: 'user operation not found' } });
});
