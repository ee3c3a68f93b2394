/**
 * raw-trace and smart-contract answers the fixture chain does not reach, over every store: the
 * Parity-style traces of a nested call tree (grandchildren, absent fields, a create, a
 * self-destruct, an unknown frame type), a mined transaction without kept frames (404), a
 * contract that self-destructed in its internal creation.
 */
import type { ContractCodeRecord, TraceFrameRecord, TransactionRecord } from '../../../lib/domain/records.ts';
import { createExplorer, EMPTY_HEX, hash, hex, toJson } from '../../../lib/index.ts';
import { A, B, addr, block, bundle, tx } from '../../ports/records.ts';
import { storeTest } from '../../ports/stores.ts';

const K = addr(0xc0de);
const GONE = addr(0xdead01);

function frame(x: TransactionRecord, index: number, traceAddress: number[], o: Partial<TraceFrameRecord>): TraceFrameRecord {
  return {
    transactionHash: x.hash,
    blockNumber: x.blockNumber ?? 0,
    blockHash: x.blockHash ?? hash('0x'),
    transactionIndex: x.index ?? 0,
    index,
    traceAddress,
    type: 'CALL',
    from: A,
    to: B,
    value: 0n,
    gas: 1000n,
    gasUsed: 500n,
    input: EMPTY_HEX,
    output: EMPTY_HEX,
    error: null,
    revertReason: null,
    ...o,
  };
}

storeTest('raw traces, traceless transactions, self-destructed contracts', async (t, s) => {
  const b1 = block(1);
  const traced = tx(b1, 0, { to: K });
  const untraced = tx(b1, 1);
  const frames = [
    frame(traced, 0, [], { to: K, input: hex('0xabcdef01'), value: 5n }),
    frame(traced, 1, [0], { type: 'DELEGATECALL', from: K, to: B, value: null, gas: null }),
    frame(traced, 2, [0, 0], { type: 'STATICCALL', from: B, to: A, value: null, output: null, error: 'execution reverted', revertReason: 'nope' }),
    frame(traced, 3, [1], { type: 'CREATE2', from: K, to: GONE, input: hex('0x6000'), output: EMPTY_HEX }),
    frame(traced, 4, [2], { type: 'SELFDESTRUCT', from: K, to: B, value: 7n, gas: null, gasUsed: null, output: null }),
    frame(traced, 5, [3], { type: 'FANCY', from: K, to: B }),
    frame(traced, 6, [3, 0], { type: 'CALL', from: B, to: A }),
  ];
  const code = (address: ContractCodeRecord['address'], deployed: ContractCodeRecord['deployedBytecode'], x: TransactionRecord): ContractCodeRecord => ({
    address,
    blockNumber: 1,
    blockHash: b1.hash,
    transactionHash: x.hash,
    transactionIndex: x.index ?? 0,
    timestamp: b1.timestamp,
    creator: K,
    deployedBytecode: deployed,
    creationBytecode: hex('0x6000'),
  });
  await s.writeBlocks([bundle(b1, { transactions: [traced, untraced], traceFrames: frames, contractCodes: [code(GONE, EMPTY_HEX, traced)] })]);
  const ex = createExplorer({ chains: { '1': s } });
  const get = async (path: string) => {
    const r = await ex.handle({ path: `/api/v2${path}` });
    return { status: r.status, body: JSON.parse(toJson(r.body)) as unknown };
  };

  const trace = [
    {
      action: { callType: 'call', from: A, gas: '0x3e8', input: '0xabcdef01', to: K, value: '0x5' },
      result: { gasUsed: '0x1f4', output: '0x' },
      subtraces: 3,
      traceAddress: [],
      type: 'call',
    },
    {
      action: { callType: 'delegatecall', from: K, gas: '0x0', input: '0x', to: B, value: '0x0' },
      result: { gasUsed: '0x1f4', output: '0x' },
      subtraces: 1,
      traceAddress: [0],
      type: 'call',
    },
    {
      action: { callType: 'staticcall', from: B, gas: '0x3e8', input: '0x', to: A, value: '0x0' },
      error: 'execution reverted',
      subtraces: 0,
      traceAddress: [0, 0],
      type: 'call',
    },
    {
      action: { from: K, gas: '0x3e8', init: '0x6000', value: '0x0' },
      result: { address: GONE, code: '0x', gasUsed: '0x1f4' },
      subtraces: 0,
      traceAddress: [1],
      type: 'create2',
    },
    { action: { address: K, balance: '0x7', refundAddress: B }, subtraces: 0, traceAddress: [2], type: 'suicide' },
  ];
  const raw = await ex.handle({ path: `/api/v2/transactions/${traced.hash}/raw-trace` });
  t.equal(raw.status, 200);
  t.equal(toJson(raw.body), JSON.stringify(trace), 'Parity-style traces in Blockscout\'s key order: quantities in hex (0x0 where the tracer left one out), error instead of result, a create\'s init and result, a self-destruct as suicide; the unknown frame type left out with its subtree');
  t.same(await get(`/transactions/${untraced.hash}/raw-trace`), { status: 404, body: { message: 'Raw trace not available: the indexer kept no trace of this transaction (its node served no traces)' } }, 'a mined transaction without frames: 404, the store holds no trace');

  t.same(await get(`/smart-contracts/${GONE}`), {
    status: 200,
    body: {
      proxy_type: null,
      implementations: [],
      conflicting_implementations: [],
      deployed_bytecode: null,
      creation_bytecode: '0x6000',
      creation_status: 'selfdestructed',
      is_verified: false,
    },
  }, 'no code left after an internal creation: selfdestructed');
  t.same(await get(`/smart-contracts/${K}`), { status: 404, body: { message: 'Not found' } }, 'a contract the indexer did not see created');
  const counters = await get('/smart-contracts/counters');
  t.same(counters.body, { smart_contracts: '1', new_smart_contracts_24h: '0', verified_smart_contracts: '0', new_verified_smart_contracts_24h: '0' });
});
