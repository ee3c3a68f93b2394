/**
 * Contract code and trace frames: getTransactionTrace, getContracts, listContracts (keyset walks,
 * address substring), countContracts (kept total, since a time) — idempotent writes, replacement
 * of a block at a height, non-consensus blocks and rollback (over every store).
 */
import type { BlockRecord, ContractCodeRecord, TraceFrameRecord, TransactionRecord } from '../../lib/domain/records.ts';
import { EMPTY_HEX, hash, hex } from '../../lib/domain/hex.ts';
import type { ContractCursor } from '../../lib/ports.ts';
import { A, B, addr, block, bundle, page, tx, walksBothWays } from './records.ts';
import { storeTest } from './stores.ts';

const K1 = addr(0xc0de01);
const K2 = addr(0xc0de02);
const K3 = addr(0xbeef03);
const K4 = addr(0xc0de04);

function contract(x: TransactionRecord, b: BlockRecord, address: ContractCodeRecord['address'], code = '0x6001'): ContractCodeRecord {
  return {
    address,
    blockNumber: b.number,
    blockHash: b.hash,
    transactionHash: x.hash,
    transactionIndex: x.index ?? 0,
    timestamp: b.timestamp,
    creator: A,
    deployedBytecode: code as ContractCodeRecord['deployedBytecode'],
    creationBytecode: b.number === 3 ? null : hex('0x60806040'),
  };
}

function frame(x: TransactionRecord, b: BlockRecord, index: number, traceAddress: number[], o: Partial<TraceFrameRecord> = {}): TraceFrameRecord {
  return {
    transactionHash: x.hash,
    blockNumber: b.number,
    blockHash: b.hash,
    transactionIndex: x.index ?? 0,
    index,
    traceAddress,
    type: 'CALL',
    from: A,
    to: B,
    value: 0n,
    gas: 100_000n,
    gasUsed: 21_000n,
    input: EMPTY_HEX,
    output: EMPTY_HEX,
    error: null,
    revertReason: null,
    ...o,
  };
}

storeTest('contracts and trace frames: lookups, keyset walks, counters, replacement and rollback', async (t, s) => {
  const b1 = block(1);
  const b2 = block(2);
  const b3 = block(3);
  const x1 = tx(b1, 0, { to: null, createdContract: K1 });
  const x2 = tx(b2, 0);
  const x3 = tx(b3, 0);
  const frames1 = [
    frame(x1, b1, 0, [], { type: 'CREATE', to: K1, input: hex('0x60806040'), output: hex('0x6001'), value: null }),
    frame(x1, b1, 1, [0], { type: 'CREATE2', from: K1, to: K2, gasUsed: null }),
    frame(x1, b1, 2, [0, 0], { type: 'STATICCALL', from: K2, to: B, value: null, output: null, error: 'execution reverted', revertReason: 'no' }),
    frame(x1, b1, 3, [1], { type: 'SELFDESTRUCT', from: K1, to: A, gas: null, input: EMPTY_HEX }),
  ];
  const frames3 = [frame(x3, b3, 0, [], { value: 10n ** 30n })];
  const bundles = [
    bundle(b1, { transactions: [x1], contractCodes: [contract(x1, b1, K1), contract(x1, b1, K2, '0x')], traceFrames: frames1 }),
    bundle(b2, { transactions: [x2] }),
    bundle(b3, { transactions: [x3], contractCodes: [contract(x3, b3, K3), contract(x3, b3, K4)], traceFrames: frames3 }),
  ];
  await s.writeBlocks(bundles);
  await s.writeBlocks(bundles); // idempotent

  t.same(await s.getTransactionTrace(x1.hash), frames1, 'the frames of a transaction, by index, as written');
  t.same(await s.getTransactionTrace(x3.hash), frames3, 'a value beyond 2^64 survives');
  t.same(await s.getTransactionTrace(x2.hash), [], 'a transaction without frames has none');
  t.same(await s.getTransactionTrace(hash(`0x${'ee'.repeat(32)}`)), [], 'an unknown transaction has none');

  const byAddress = (rows: readonly ContractCodeRecord[]) => [...rows].sort((a, b) => (a.address < b.address ? -1 : 1));
  t.same(byAddress(await s.getContracts([K2, K1, K1, addr(0x404404)])), byAddress([contract(x1, b1, K1), contract(x1, b1, K2, '0x')]), 'batch lookup');
  t.same(await s.getContracts([]), [], 'an empty batch');

  const key = (c: ContractCodeRecord) => `${c.blockNumber}:${c.address.slice(-6)}`;
  const cursorOf = (c: ContractCodeRecord): ContractCursor => ({ blockNumber: c.blockNumber, address: c.address });
  await walksBothWays(t, 'all', (p) => s.listContracts({}, p), cursorOf, key, ['3:c0de04', '3:beef03', '1:c0de02', '1:c0de01']);
  await walksBothWays(t, 'c0de', (p) => s.listContracts({ addressContains: 'c0de' }, p), cursorOf, key, ['3:c0de04', '1:c0de02', '1:c0de01']);
  await walksBothWays(t, '0x-prefixed', (p) => s.listContracts({ addressContains: `0x000000` }, p), cursorOf, key, ['3:c0de04', '3:beef03', '1:c0de02', '1:c0de01']);
  t.same(await s.listContracts({ addressContains: 'zz' }, page()), [], 'no address text holds a non-hex character');
  t.same((await s.listContracts({}, page({ blockNumber: 3, address: K3 }, 1))).map(key), ['1:c0de02'], 'strictly past the cursor');
  t.same((await s.listContracts({}, page({ blockNumber: 3, address: K3 }, 10, 'asc'))).map(key), ['3:c0de04'], 'asc: past the cursor upwards');

  t.equal(await s.countContracts({}), 4, 'the kept total');
  t.equal(await s.countContracts({ createdSince: b3.timestamp }), 2, 'created since a time (inclusive)');
  t.equal(await s.countContracts({ createdSince: b3.timestamp + 1 }), 0);

  // a non-consensus block brings no contracts nor frames
  const b2r = block(2, { tag: 'r', consensus: false });
  const x2r = tx(b2r, 0, { tag: 'x2r' });
  await s.writeBlocks([bundle(b2r, { transactions: [x2r], contractCodes: [contract(x2r, b2r, addr(0x77))], traceFrames: [frame(x2r, b2r, 0, [])] })]);
  t.equal(await s.countContracts({}), 4, 'a non-consensus block counts nothing');
  t.same(await s.getTransactionTrace(x2r.hash), [], 'nor keeps frames');

  // a new consensus block at height 3 replaces the old one and what it brought
  const b3b = block(3, { tag: 'b' });
  const x3b = tx(b3b, 0, { tag: 'x3b' });
  await s.writeBlocks([bundle(b3b, { transactions: [x3b], contractCodes: [contract(x3b, b3b, K3, '0x6002')] })]);
  t.equal(await s.countContracts({}), 3, 'replacement moves the counter');
  t.same(await s.getTransactionTrace(x3.hash), [], 'the replaced block took its frames');
  t.same((await s.getContracts([K3]))[0]?.deployedBytecode, '0x6002', 'the replacing creation');
  t.same((await s.getContracts([K4])).length, 0, 'a contract of the replaced block is gone');

  // re-creation of an address: both creations listed, the latest one looked up
  const b4 = block(4);
  const x4 = tx(b4, 0);
  await s.writeBlocks([bundle(b4, { transactions: [x4], contractCodes: [contract(x4, b4, K1, '0x6003')] })]);
  t.same((await s.listContracts({ addressContains: K1 }, page())).map(key), ['4:c0de01', '1:c0de01'], 'one record per creation');
  t.same((await s.getContracts([K1]))[0]?.deployedBytecode, '0x6003', 'the latest creation is looked up');
  t.equal(await s.countContracts({}), 4);

  await s.rollbackAbove(1);
  t.equal(await s.countContracts({}), 2, 'rollback moves the counter');
  t.same((await s.listContracts({}, page())).map(key), ['1:c0de02', '1:c0de01'], 'rollback removes contracts above');
  t.same((await s.getContracts([K1]))[0]?.deployedBytecode, '0x6001', 'the earlier creation is current again');
  t.same(await s.getTransactionTrace(x1.hash), frames1, 'frames below the height stay');
  await s.rollbackAbove(0);
  t.equal(await s.countContracts({}), 0);
  t.same(await s.getTransactionTrace(x1.hash), [], 'and go with their block');
  t.same(await s.listContracts({}, page()), []);
});
