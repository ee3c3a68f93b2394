import t from 'tap';
import { NOT_IN_PRO_API, officialFormOf, officialSpecs, SPEC_PATCHES, toJsonSchema, validateResponse } from './openapi.ts';
import type { ApiForm, ApiSpecs } from './openapi.ts';

const forms: ApiForm[] = ['instance', 'pro'];
const TX_PATH = '/transactions/{transaction_hash_param}';
const SC_PATH = '/transactions/{transaction_hash_param}/state-changes';

const H = `0x${'ab'.repeat(32)}`;
const address = (n: number, isContract = false) => ({
  hash: `0x${n.toString(16).padStart(40, '0')}`,
  is_contract: isContract,
  name: null,
  is_scam: false,
  reputation: 'ok',
  proxy_type: null,
  implementations: [],
  is_verified: false,
  ens_domain_name: null,
  metadata: null,
});
const token = {
  address_hash: `0x${'77'.repeat(20)}`,
  symbol: 'PUNK',
  name: 'Punks',
  decimals: null,
  type: 'ERC-721',
  holders_count: '3',
  exchange_rate: null,
  volume_24h: null,
  total_supply: '10',
  icon_url: null,
  circulating_market_cap: null,
  circulating_supply: null,
  reputation: 'ok',
};
const transaction = (): Record<string, unknown> => ({
  hash: H,
  result: 'success',
  status: 'ok',
  block_number: 12,
  timestamp: '2024-01-01T00:00:00.000000Z',
  from: address(1),
  to: address(2, true),
  created_contract: null,
  confirmations: 3,
  confirmation_duration: [0, 12000],
  value: '0',
  fee: { type: 'actual', value: '21000' },
  gas_price: '1000000000',
  type: 2,
  gas_used: '21000',
  gas_limit: '50000',
  max_fee_per_gas: '2000000000',
  max_priority_fee_per_gas: '1000000000',
  base_fee_per_gas: '1000000000',
  priority_fee: '21000000000000',
  transaction_burnt_fee: '21000000000000',
  nonce: 1,
  position: 0,
  revert_reason: null,
  raw_input: '0xa9059cbb',
  decoded_input: null,
  token_transfers: [],
  token_transfers_overflow: false,
  exchange_rate: null,
  historic_exchange_rate: null,
  method: 'transfer',
  transaction_types: ['contract_call'],
  transaction_tag: null,
  has_error_in_internal_transactions: false,
  authorization_list: [],
  is_pending_update: false,
  fhe_operations_count: 0,
});
const stateChange = (change: unknown): Record<string, unknown> => ({
  address: address(5),
  is_miner: false,
  type: 'token',
  token,
  token_id: null,
  balance_before: '1',
  balance_after: '0',
  change,
});
const scPage = (...items: unknown[]) => ({ items, next_page_params: null });
const erc721Change = [{ direction: 'from', total: { token_id: '7', token_instance: null } }];

const official = await officialSpecs();
if (official === null) t.pass('the official documents are absent off CI: the oracle itself is not checked (see the loud line)');
else checkOracle(official);

/** The oracle's own tests: it accepts valid bodies and catches every kind of invalid one. */
function checkOracle(specs: ApiSpecs): void {
  t.test('a valid transaction validates in both forms', async (t) => {
    for (const f of forms) t.same(validateResponse(specs, f, TX_PATH, 200, transaction()), [], f);
    // parameter names are not significant; trailing slashes neither
    t.same(validateResponse(specs, 'instance', '/transactions/{hash}', 200, transaction()), []);
  });

  t.test('catches a wrong type, an extra property and a missing required field', async (t) => {
    for (const f of forms) {
      const wrong = { ...transaction(), nonce: '1' };
      t.match(validateResponse(specs, f, TX_PATH, 200, wrong).join('\n'), /\/nonce: must be integer/, `${f} wrong type`);
      const bigint = { ...transaction(), value: 10 };
      t.match(validateResponse(specs, f, TX_PATH, 200, bigint).join('\n'), /\/value: must be string/, `${f} number for an integer string`);
      const extra = { ...transaction(), surprise: 1 };
      t.match(validateResponse(specs, f, TX_PATH, 200, extra).join('\n'), /must NOT have additional properties 'surprise'/, `${f} extra`);
      const nested = { ...transaction(), from: { ...address(1), implementation_name: 'X' } };
      t.match(validateResponse(specs, f, TX_PATH, 200, nested).join('\n'), /\/from: must NOT have additional properties/, `${f} nested extra`);
      const missing = transaction();
      delete missing.fee;
      t.match(validateResponse(specs, f, TX_PATH, 200, missing).join('\n'), /must have required property 'fee'/, `${f} missing`);
      const badPattern = { ...transaction(), hash: '0x12' };
      t.match(validateResponse(specs, f, TX_PATH, 200, badPattern).join('\n'), /\/hash: must match pattern/, `${f} pattern`);
      const badEnum = { ...transaction(), status: 'fine' };
      t.match(validateResponse(specs, f, TX_PATH, 200, badEnum).join('\n'), /\/status: must be equal to one of the allowed values/, `${f} enum`);
    }
  });

  t.test('accepts null where nullable, rejects it elsewhere', async (t) => {
    for (const f of forms) {
      const nulls = {
        ...transaction(),
        status: null, // nullable enum
        block_number: null, // nullable integer
        gas_used: null, // $ref to a nullable schema
        created_contract: null, // allOf + nullable
        decoded_input: null, // allOf + nullable
        revert_reason: null, // oneOf + nullable
        token_transfers: null, // nullable array
      };
      t.same(validateResponse(specs, f, TX_PATH, 200, nulls), [], `${f} nullable fields`);
      t.same(
        validateResponse(specs, f, TX_PATH, 200, { ...transaction(), created_contract: address(9, true) }),
        [],
        `${f} allOf wrapper still accepts the object`,
      );
      t.same(
        validateResponse(specs, f, TX_PATH, 200, { ...transaction(), revert_reason: { raw: '0x08c379a0' } }),
        [],
        `${f} oneOf wrapper still accepts an object`,
      );
      for (const field of ['from', 'hash', 'value', 'fee', 'nonce', 'result', 'raw_input', 'gas_limit']) {
        t.not(validateResponse(specs, f, TX_PATH, 200, { ...transaction(), [field]: null }).length, 0, `${f} ${field} null rejected`);
      }
    }
  });

  t.test('allOf+nullable wrappers of other resources accept null', async (t) => {
    const itx = {
      error: null,
      success: true,
      type: 'create',
      transaction_hash: H,
      transaction_index: 0,
      from: address(1),
      to: null,
      created_contract: null,
      value: '0',
      block_number: 1,
      timestamp: '2024-01-01T00:00:00.000000Z',
      index: 1,
      gas_limit: '100',
    };
    const log = {
      transaction_hash: H,
      address: address(2, true),
      topics: [H, null, null, null],
      data: '0x',
      index: 0,
      decoded: null,
      smart_contract: null,
      block_hash: H,
      block_number: 1,
      block_timestamp: '2024-01-01T00:00:00.000000Z',
    };
    const instance = {
      id: '18446744073709551621',
      metadata: null,
      owner: null,
      token: null,
      external_app_url: null,
      animation_url: null,
      image_url: null,
      is_unique: null,
      thumbnails: null,
      media_type: null,
      media_url: null,
    };
    for (const f of forms) {
      t.same(validateResponse(specs, 'instance', '/internal-transactions', 200, { items: [itx], next_page_params: null }), [], 'internal tx to/created_contract');
      t.same(validateResponse(specs, f, '/transactions/{h}/logs', 200, { items: [log], next_page_params: null }), [], `${f} log smart_contract`);
      t.same(validateResponse(specs, f, '/tokens/{a}/instances/{id}', 200, instance), [], `${f} instance owner/token`);
      t.not(validateResponse(specs, f, '/tokens/{a}/instances/{id}', 200, { ...instance, id: null }).length, 0, `${f} instance id not nullable`);
    }
  });

  t.test('patch 0: raw-trace is the Parity-style array, a create, a failure and a self-destruct included', async (t) => {
    const RAW = '/transactions/{transaction_hash_param}/raw-trace';
    const [a, b] = [`0x${'11'.repeat(20)}`, `0x${'22'.repeat(20)}`];
    const call = {
      action: { callType: 'call', from: a, gas: '0x5208', input: '0x', to: b, value: '0x0' },
      result: { gasUsed: '0x5208', output: '0x' },
      subtraces: 1,
      traceAddress: [],
      type: 'call',
    };
    const create = {
      action: { from: b, gas: '0x100', init: '0x6000', value: '0x0' },
      result: { address: a, code: '0x00', gasUsed: '0x10' },
      subtraces: 0,
      traceAddress: [0],
      type: 'create2',
    };
    const { result: _callResult, ...failedCall } = { ...call, error: 'execution reverted' };
    const { result: _createResult, ...failedCreate } = { ...create, error: 'out of gas' };
    const suicide = { action: { address: b, balance: '0x1', refundAddress: a }, subtraces: 0, traceAddress: [1], type: 'suicide' };
    for (const f of forms) {
      t.same(validateResponse(specs, f, RAW, 200, [call]), [], `${f} a successful call validates unpatched`);
      t.same(validateResponse(specs, f, RAW, 200, [call, create, failedCall, failedCreate, suicide]), [], `${f} every Parity shape`);
      t.same(validateResponse(specs, f, RAW, 200, []), [], `${f} empty`);
      t.not(validateResponse(specs, f, RAW, 200, { type: 'CALL', from: a, input: '0x' }).length, 0, `${f} a callTracer object is not an array`);
      t.not(validateResponse(specs, f, RAW, 200, [{ ...call, extra: 1 }]).length, 0, `${f} no extra keys`);
      t.not(validateResponse(specs, f, RAW, 200, [{ ...create, type: 'call' }]).length, 0, `${f} a create action is not a call's`);
      t.not(validateResponse(specs, f, RAW, 200, [{ ...failedCall, result: call.result }]).length, 0, `${f} error and result are exclusive`);
      t.not(validateResponse(specs, f, RAW, 200, [{ ...suicide, error: 'x' }]).length, 0, `${f} a self-destruct has no error`);
      t.not(validateResponse(specs, f, RAW, 200, [{ ...call, subtraces: -1 }]).length, 0, `${f} subtraces ≥ 0`);
      t.not(validateResponse(specs, f, RAW, 200, [{ ...call, action: { ...call.action, gas: 21000 } }]).length, 0, `${f} quantities are hex strings`);
    }
  });

  t.test('patch 1: Transaction.to may be null, and only that', async (t) => {
    t.same(
      SPEC_PATCHES.map((p) => p.name),
      ['raw-trace-parity-shapes', 'transaction-to-nullable', 'state-change-erc721-change', 'constructor-args-array-values'],
      'exactly the known spec bugs and the raw-trace shape are patched',
    );
    for (const f of forms) {
      t.same(specs.applied[f], SPEC_PATCHES.map((p) => p.name));
      const creation = { ...transaction(), to: null, created_contract: address(9, true), transaction_types: ['contract_creation'] };
      t.same(validateResponse(specs, f, TX_PATH, 200, creation), [], `${f} to null`);
      t.not(validateResponse(specs, f, TX_PATH, 200, { ...transaction(), to: 'x' }).length, 0, `${f} to must still be an address`);
      t.not(
        validateResponse(specs, f, TX_PATH, 200, { ...transaction(), to: { ...address(2), extra: 1 } }).length,
        0,
        `${f} to keeps additionalProperties false`,
      );
      t.not(validateResponse(specs, f, TX_PATH, 200, { ...transaction(), from: null }).length, 0, `${f} from still not nullable`);
    }
  });

  t.test('patch 2: StateChange.change may be the ERC-721 array', async (t) => {
    for (const f of forms) {
      t.same(validateResponse(specs, f, SC_PATH, 200, scPage(stateChange('-1'))), [], `${f} integer string`);
      t.same(validateResponse(specs, f, SC_PATH, 200, scPage(stateChange(null))), [], `${f} null`);
      t.same(validateResponse(specs, f, SC_PATH, 200, scPage(stateChange(erc721Change))), [], `${f} ERC-721 array`);
      t.same(validateResponse(specs, f, SC_PATH, 200, scPage(stateChange([]))), [], `${f} empty array`);
      const bad = [
        ['number', 5],
        ['non-integer string', '1.5'],
        ['bad direction', [{ direction: 'sideways', total: { token_id: '7', token_instance: null } }]],
        ['extra key', [{ direction: 'to', total: { token_id: '7', token_instance: null }, extra: 1 }]],
        ['missing total', [{ direction: 'to' }]],
        ['bad total', [{ direction: 'to', total: { token_id: 7, token_instance: null } }]],
      ] as const;
      for (const [what, change] of bad) {
        t.not(validateResponse(specs, f, SC_PATH, 200, scPage(stateChange(change))).length, 0, `${f} rejects ${what}`);
      }
      t.not(
        validateResponse(specs, f, SC_PATH, 200, scPage({ ...stateChange('1'), is_miner: null })).length,
        0,
        `${f} other StateChange fields unchanged`,
      );
    }
  });

  t.test('patch 3: a decoded constructor argument may be an array (the Pro API), as 11.2.7 already allows', async (t) => {
    const patch = SPEC_PATCHES.find((p) => p.name === 'constructor-args-array-values');
    if (patch === undefined) throw new Error('no patch constructor-args-array-values');
    // each document's field as published (vendor keys aside); the patch edits `parts` in place
    const schemasWith = (parts: object[]): object => ({
      SmartContract: { properties: { decoded_constructor_args: { type: 'array', nullable: true, items: { type: 'array', items: { anyOf: parts } } } } },
    });
    const pro = [{ type: 'object' }, { type: 'string' }];
    patch.apply(schemasWith(pro) as never);
    t.same(pro, [{ type: 'object' }, { type: 'string' }, { type: 'array' }], 'the Pro API: an array added');
    const instance = [{ type: 'array' }, { type: 'object' }, { type: 'string' }];
    patch.apply(schemasWith(instance) as never);
    t.same(instance, [{ type: 'array' }, { type: 'object' }, { type: 'string' }], '11.2.7: unchanged');
    t.throws(() => patch.apply(schemasWith([{ type: 'number' }]) as never), /constructor-args-array-values/, 'a shape not as expected: a loud error');
    t.throws(() => patch.apply({} as never), /no SmartContract/, 'no SmartContract schema: a loud error');
  });

  t.test('the paths the Pro API lacks are exactly the listed ones, and 11.2.7 has them', async (t) => {
    for (const p of NOT_IN_PRO_API) {
      t.match(validateResponse(specs, 'pro', p, 200, {}).join(), /no path/, `${p}: not in the Pro API`);
      t.notMatch(validateResponse(specs, 'instance', p, 200, {}).join(), /no path/, `${p}: in 11.2.7`);
      t.equal(officialFormOf('multichain', p), 'instance', `${p}: its multichain form is held to 11.2.7`);
    }
    t.equal(officialFormOf('multichain', '/main-page/blocks'), 'pro', 'every other path: to the Pro API');
    t.equal(officialFormOf('instance', '/main-page/blocks'), 'instance');
  });

  t.test('unknown paths and statuses are reported, not accepted', async (t) => {
    t.match(validateResponse(specs, 'instance', '/no/such/path', 200, {}).join(), /no path/);
    t.match(validateResponse(specs, 'pro', TX_PATH, 418, {}).join(), /no 418 response/);
  });
}

t.test('the nullable translation', async (t) => {
  t.same(toJsonSchema({ type: 'string', nullable: true, enum: ['a'], 'x-struct': null, example: 'a' }), {
    type: ['string', 'null'],
    enum: ['a', null],
  });
  t.same(toJsonSchema({ allOf: [{ type: 'object' }], nullable: true }), {
    anyOf: [{ allOf: [{ type: 'object' }] }, { type: 'null' }],
  });
  t.same(toJsonSchema({ type: 'integer', nullable: false }), { type: 'integer' });
  // property names are never taken for keywords
  t.same(toJsonSchema({ type: 'object', properties: { example: { type: 'string' }, nullable: { type: 'boolean' } } }), {
    type: 'object',
    properties: { example: { type: 'string' }, nullable: { type: 'boolean' } },
  });
});
