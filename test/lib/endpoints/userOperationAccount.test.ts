/**
 * GET /proxy/account-abstraction/accounts/{h} through createExplorer, on every store
 * SCOUTKIT_STORES selects: the chain of userOperationChain.ts — an account created by its first
 * operation (factory, creation transaction, operation and time), one without a creation
 * operation (nulls), counts from the operations, 404 `{code: 5}` for an address that sent none,
 * 422 for a malformed one, both forms; a store without user operations; every answer validated
 * against both official documents.
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
import { ACCOUNT_1, ACCOUNT_2, BUNDLER_X, FACTORY, writeUserOperationChain } from './userOperationChain.ts';

const TEMPLATE = '/proxy/account-abstraction/accounts/{address_hash_param}';
const specs = await officialSpecs();
const factories = await storeFactories();

async function account(t: Test, ex: Explorer, address: string, form: 'instance' | 'multichain' = 'instance'): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await ex.handle({ path: `${form === 'instance' ? '' : '/1'}/api/v2/proxy/account-abstraction/accounts/${address}` });
  const body = JSON.parse(toJson(r.body)) as Record<string, unknown>;
  // the documents list no 422 for these paths (Blockscout answers one from its parameter checks)
  if (specs !== null && r.status !== 422) t.same(validateResponse(specs, form === 'instance' ? 'instance' : 'pro', TEMPLATE, r.status, body), [], `${address} ${r.status}: the official document (${form})`);
  return { status: r.status, body };
}

for (const factory of factories) {
  await t.test(`${factory.name}: accounts`, async (t) => {
    const store = await factory.open();
    t.teardown(() => store.close());
    const chain = await writeUserOperationChain(store);
    const ex = createExplorer({ chains: { '1': store } });
    const create = chain.byTag.create;
    if (create === undefined) throw new Error('fixture');
    const count = (a: string) => chain.ops.filter((o) => o.sender === a).length;
    for (const form of ['instance', 'multichain'] as const) {
      const one = await account(t, ex, ACCOUNT_1, form);
      t.match([one.status, one.body], [200, {
        address: { hash: getAddress(ACCOUNT_1) },
        factory: { hash: getAddress(FACTORY) },
        creation_transaction_hash: create.transactionHash,
        creation_op_hash: create.hash,
        creation_timestamp: /^\d{4}-\d\d-\d\dT/,
        total_ops: count(ACCOUNT_1),
      }], `an account created by its first operation (${form})`);
    }
    const two = await account(t, ex, ACCOUNT_2);
    t.match([two.status, two.body], [200, { address: { hash: getAddress(ACCOUNT_2) }, factory: null, creation_transaction_hash: null, creation_op_hash: null, creation_timestamp: null, total_ops: count(ACCOUNT_2) }], 'an account no operation created: nulls');
    const none = await account(t, ex, BUNDLER_X);
    t.same([none.status, none.body], [404, { code: 5, message: 'account not found' }], 'an address that sent no operation → 404');
    t.equal((await account(t, ex, '0x12')).status, 422, 'malformed → 422');
  });
}

await t.test('a store without user operations: 404', async (t) => {
  const store = createMemoryStore();
  await writeUserOperationChain(store);
  const hidden = new Set<PropertyKey>(['listUserOperations', 'getUserOperationParties']);
  const lacking = new Proxy(store, {
    get: (target, key) => {
      if (hidden.has(key)) return undefined;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as DataSource;
  const r = await account(t, createExplorer({ chains: { '1': lacking } }), ACCOUNT_1);
  t.same([r.status, r.body], [404, { code: 5, message: 'account not found' }]);
});
