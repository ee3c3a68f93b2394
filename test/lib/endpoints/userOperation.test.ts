/**
 * GET /proxy/account-abstraction/operations/{h} through createExplorer, on every store
 * SCOUTKIT_STORES selects: a chain written here (userOperationChain.ts) — Blockscout's fields
 * (fee, nonce as 32-byte hex, raw in both versions' shapes, execute target and call data, both
 * decoded), both forms, 404 `{code: 5}` for an unknown hash and from a store without user
 * operations, 422 for a malformed one; every answer validated against both official documents.
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
import { ACCOUNT_1, FACTORY, FRIEND, INNER, PAYMASTER, TOKEN, writeUserOperationChain } from './userOperationChain.ts';

const TEMPLATE = '/proxy/account-abstraction/operations/{operation_hash_param}';
const specs = await officialSpecs();
const factories = await storeFactories();

type Body = Record<string, unknown> & { raw: Record<string, unknown>; sender: { hash: string } };

async function get(t: Test, ex: Explorer, hash: string, form: 'instance' | 'multichain' = 'instance'): Promise<{ status: number; body: Body }> {
  const r = await ex.handle({ path: `${form === 'instance' ? '' : '/1'}/api/v2/proxy/account-abstraction/operations/${hash}` });
  const body = JSON.parse(toJson(r.body)) as Body;
  // the documents list no 422 for these paths (Blockscout answers one from its parameter checks)
  if (specs !== null && r.status !== 422) t.same(validateResponse(specs, form === 'instance' ? 'instance' : 'pro', TEMPLATE, r.status, body), [], `${hash.slice(0, 12)} ${r.status}: the official document (${form})`);
  return { status: r.status, body };
}

for (const factory of factories) {
  await t.test(`${factory.name}: one user operation`, async (t) => {
    const store = await factory.open();
    t.teardown(() => store.close());
    const chain = await writeUserOperationChain(store);
    const ex = createExplorer({ chains: { '1': store } });
    const create = chain.byTag.create;
    if (create === undefined) throw new Error('fixture');
    const { status, body } = await get(t, ex, create.hash);
    t.equal(status, 200);
    t.match(body, {
      hash: create.hash,
      sender: { hash: getAddress(ACCOUNT_1) },
      nonce: `0x${'0'.repeat(64)}`,
      factory: { hash: getAddress(FACTORY) },
      paymaster: null,
      fee: String(7n * 100_001n),
      gas_price: '7',
      gas_used: '100001',
      block_number: '1',
      entry_point_version: 'v0.7',
      consensus: true,
      sponsor_type: 'wallet_deposit',
      user_logs_start_index: 2,
      user_logs_count: 1,
      execute_target: { hash: getAddress(TOKEN) },
      execute_call_data: INNER,
      decoded_execute_call_data: { method_call: 'transfer(address to, uint256 value)', parameters: [{ name: 'to', value: getAddress(FRIEND) }, { name: 'value', value: '5' }] },
      decoded_call_data: { method_id: 'b61d27f6' },
      aggregator: null,
    }, 'its fields, addresses as objects, the call data decoded');
    t.same(body.raw, {
      sender: getAddress(ACCOUNT_1),
      nonce: '0',
      init_code: create.initCode,
      call_data: create.callData,
      account_gas_limits: `0x${(200_000n).toString(16).padStart(32, '0')}${(100_000n).toString(16).padStart(32, '0')}`,
      pre_verification_gas: '50000',
      gas_fees: `0x${(1_000_000_000n).toString(16).padStart(32, '0')}${(3_000_000_000n).toString(16).padStart(32, '0')}`,
      paymaster_and_data: '0x',
      signature: '0x01',
    }, 'raw: the v0.7 packed form');

    const second = await get(t, ex, chain.byTag.second?.hash ?? '');
    t.equal(second.body.nonce, `0x${(2n ** 64n + 1n).toString(16).padStart(64, '0')}`, 'a key-ed nonce as 32-byte hex');
    t.equal((second.body.raw as { nonce: string }).nonce, String(2n ** 64n + 1n), 'decimal in raw');

    const v06 = await get(t, ex, chain.byTag.v06?.hash ?? '', 'multichain');
    t.equal(v06.status, 200, 'the multichain form');
    t.match(v06.body, { entry_point_version: 'v0.6', aggregator: getAddress(`0x${'0'.repeat(37)}a99`), aggregator_signature: '0x02', execute_target: null, execute_call_data: null, decoded_execute_call_data: null }, 'v0.6: no execute call');
    t.same(Object.keys(v06.body.raw).sort(), ['call_data', 'call_gas_limit', 'init_code', 'max_fee_per_gas', 'max_priority_fee_per_gas', 'nonce', 'paymaster_and_data', 'pre_verification_gas', 'sender', 'signature', 'verification_gas_limit'], 'raw: the v0.6 struct');

    const paid = await get(t, ex, chain.byTag.paid?.hash ?? '');
    t.match(paid.body, { paymaster: { hash: getAddress(PAYMASTER) }, sponsor_type: 'paymaster_sponsor' }, 'a paymaster');
    const reverted = await get(t, ex, chain.byTag.reverted?.hash ?? '');
    t.match(reverted.body, { status: false, revert_reason: '0x08c379a0', bundle_index: 1 }, 'a reverted operation');

    const missing = await get(t, ex, `0x${'ab'.repeat(32)}`);
    t.same([missing.status, missing.body], [404, { code: 5, message: 'user operation not found' }], "unknown → 404 in the service's body");
    const bad = await get(t, ex, '0x12');
    t.same([bad.status, bad.body], [422, { errors: [{ title: 'Invalid value', source: { pointer: '/operation_hash_param' }, detail: 'Invalid format. Expected ~r/^0x([A-Fa-f0-9]{64})$/' }] }], 'malformed → 422');
  });
}

await t.test('a store without user operations: 404 as for an unknown hash', async (t) => {
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
  const r = await get(t, ex, chain.byTag.create?.hash ?? '');
  t.same([r.status, r.body], [404, { code: 5, message: 'user operation not found' }]);
});
