/** listTransactions: pending and validated orders, cursors, filters. (the port suite, over every store). */
import type { Hex, TransactionRecord } from '../../lib/domain/records.ts';
import { hex } from '../../lib/domain/hex.ts';
import type { TransactionCursor, TransactionFilter } from '../../lib/ports.ts';
import { A, B, C, h32, block, tx, bundle, walk, walksBothWays, page } from './records.ts';
import { storeTest } from './stores.ts';

storeTest('pending transactions: order, cursor, replaced by mined', async (t, s) => {
  const p1 = tx(null, 0, { tag: 'p1', insertedAt: 2000 });
  const p2 = tx(null, 0, { tag: 'p2', insertedAt: 1000 });
  const p3 = tx(null, 0, { tag: 'p3', insertedAt: 2000 });
  const p4 = tx(null, 0, { tag: 'p4', insertedAt: 3000 });
  await s.writePendingTransactions([p1, p2, p3, p4]);
  await s.writePendingTransactions([{ ...p2, insertedAt: 9999 }]); // idempotent by hash: first seen wins
  const expected = [p4, p1, p3, p2].map((x) => x.hash);
  t.same((await s.listTransactions({ status: 'pending' }, page())).map((x) => x.hash), expected);
  const walked = await walk<TransactionRecord, TransactionCursor>(
    (after, limit) => s.listTransactions({ status: 'pending' }, { after, limit, order: 'desc' }),
    (x) => ({ insertedAt: x.insertedAt, hash: x.hash }),
    1,
  );
  t.same(walked.map((x) => x.hash), expected);
  t.same(
    (await s.listTransactions({ status: 'pending' }, page({ insertedAt: 2000, hash: p1.hash }))).map((x) => x.hash),
    [p3.hash, p2.hash],
  );
  await t.rejects(s.writePendingTransactions([tx(block(1), 0)]), { name: 'InvalidWriteError' });

  const b1 = block(1);
  const mined = { ...p1, blockNumber: 1, blockHash: b1.hash, index: 0, timestamp: b1.timestamp };
  await s.writeBlocks([bundle(b1, { transactions: [mined] })]);
  t.same((await s.listTransactions({ status: 'pending' }, page())).map((x) => x.hash), [p4.hash, p3.hash, p2.hash]);
  t.equal((await s.getTransaction(p1.hash))?.blockNumber, 1);
  await s.writePendingTransactions([p1]);
  t.equal((await s.listTransactions({ status: 'pending' }, page())).length, 3, 'a mined tx is not pending again');
  t.equal((await s.getTransaction(p2.hash))?.blockNumber, null);
});

storeTest('listTransactions validated: order, ties, filters, cursor', async (t, s) => {
  const b1 = block(1);
  const b2 = block(2);
  const m1: Hex = hex('0xa9059cbb');
  const m2: Hex = hex('0x095ea7b3');
  const txs1 = [
    tx(b1, 0, { kinds: ['coin_transfer'] }),
    tx(b1, 1, { kinds: ['contract_call', 'token_transfer'], methodId: m1 }),
    tx(b1, 2, { kinds: ['contract_call'], methodId: m2 }),
  ];
  const txs2 = [tx(b2, 0, { kinds: ['contract_creation'] }), tx(b2, 1, { kinds: ['token_transfer', 'coin_transfer'], methodId: m1 })];
  await s.writeBlocks([bundle(b1, { transactions: txs1 }), bundle(b2, { transactions: txs2 })]);
  const key = (x: TransactionRecord) => `${x.blockNumber}.${x.index}`;
  const all = ['2.1', '2.0', '1.2', '1.1', '1.0'];
  t.same((await s.listTransactions({ status: 'validated' }, page())).map(key), all);
  for (const limit of [1, 2, 3]) {
    const walked = await walk<TransactionRecord, TransactionCursor>(
      (after, l) => s.listTransactions({ status: 'validated' }, { after, limit: l, order: 'desc' }),
      (x) => ({ blockNumber: x.blockNumber ?? 0, index: x.index ?? 0 }),
      limit,
    );
    t.same(walked.map(key), all, `walk with limit ${limit}`);
  }
  t.same((await s.listTransactions({ status: 'validated' }, page({ blockNumber: 1, index: 2 }))).map(key), ['1.1', '1.0']);
  const kinds = await s.listTransactions({ status: 'validated', kinds: ['coin_transfer', 'token_transfer'] }, page());
  t.same(kinds.map(key), ['2.1', '1.1', '1.0'], 'OR of kinds, each tx once');
  t.same(
    (await s.listTransactions({ status: 'validated', kinds: ['coin_transfer', 'token_transfer'] }, page({ blockNumber: 2, index: 1 }, 1))).map(key),
    ['1.1'],
  );
  t.same((await s.listTransactions({ status: 'validated', methodIds: [m1, m2] }, page())).map(key), ['2.1', '1.2', '1.1']);
  t.same((await s.listTransactions({ status: 'validated', kinds: ['contract_call'], methodIds: [m2] }, page())).map(key), ['1.2']);
  t.same(await s.listTransactions({ status: 'validated', kinds: [] }, page()), [], 'an empty OR matches nothing');
  await t.rejects(s.listTransactions({ status: 'validated' }, page({ insertedAt: 1, hash: h32('x') })), TypeError);
});

storeTest('listTransactions by address, direction and block range, both orders', async (t, s) => {
  const [b1, b2, b3] = [block(1), block(2), block(3)];
  const m1: Hex = hex('0xa9059cbb');
  const txs = [
    tx(b1, 0, { from: A, to: B, kinds: ['coin_transfer'] }),
    tx(b1, 1, { from: B, to: A, kinds: ['contract_call'], methodId: m1 }),
    tx(b2, 0, { from: A, to: null, createdContract: C, kinds: ['contract_creation'] }),
    tx(b2, 1, { from: A, to: A, kinds: ['coin_transfer'] }),
    tx(b3, 0, { from: C, to: B, kinds: ['contract_call'], methodId: m1 }),
  ];
  const side = block(3, { tag: 'side', consensus: false });
  await s.writeBlocks([
    bundle(side, { transactions: [tx(side, 0, { tag: 'side-tx', from: A })] }),
    bundle(b1, { transactions: txs.slice(0, 2) }),
    bundle(b2, { transactions: txs.slice(2, 4) }),
    bundle(b3, { transactions: txs.slice(4) }),
  ]);
  await s.writePendingTransactions([
    tx(null, 0, { tag: 'p1', from: A, to: B, insertedAt: 3000 }),
    tx(null, 0, { tag: 'p2', from: B, to: A, insertedAt: 2000 }),
    tx(null, 0, { tag: 'p3', from: C, to: B, insertedAt: 2000 }),
    tx(null, 0, { tag: 'p4', from: B, to: null, createdContract: A, insertedAt: 1000 }),
  ]);
  const key = (x: TransactionRecord) => (x.blockNumber === null ? `p${x.insertedAt}:${x.from === A ? 'A' : x.from === B ? 'B' : 'C'}` : `${x.blockNumber}.${x.index}`);
  const mined = (x: TransactionRecord): TransactionCursor => ({ blockNumber: x.blockNumber ?? 0, index: x.index ?? 0 });
  const pending = (x: TransactionRecord): TransactionCursor => ({ insertedAt: x.insertedAt, hash: x.hash });
  const walks = (label: string, f: TransactionFilter, expected: readonly string[]) =>
    walksBothWays(t, label, (p) => s.listTransactions(f, p), f.status === 'pending' ? pending : mined, key, expected);

  await walks('A any', { status: 'validated', address: A }, ['2.1', '2.0', '1.1', '1.0']);
  t.same(
    (await s.listTransactions({ status: 'validated', address: A, direction: 'any' }, page())).map(key),
    ['2.1', '2.0', '1.1', '1.0'],
    "'any' is the default direction",
  );
  await walks('A from', { status: 'validated', address: A, direction: 'from' }, ['2.1', '2.0', '1.0']);
  await walks('A to', { status: 'validated', address: A, direction: 'to' }, ['2.1', '1.1']);
  await walks('C to: the created contract', { status: 'validated', address: C, direction: 'to' }, ['2.0']);
  await walks('C any', { status: 'validated', address: C }, ['3.0', '2.0']);
  await walks('B to, method', { status: 'validated', address: B, direction: 'to', methodIds: [m1] }, ['3.0']);
  await walks('A, kinds', { status: 'validated', address: A, kinds: ['coin_transfer'] }, ['2.1', '1.0']);
  await walks('range 2..', { status: 'validated', blocks: { from: 2 } }, ['3.0', '2.1', '2.0']);
  await walks('range ..1', { status: 'validated', blocks: { to: 1 } }, ['1.1', '1.0']);
  await walks('A, range 2..2', { status: 'validated', address: A, blocks: { from: 2, to: 2 } }, ['2.1', '2.0']);
  await walks('kinds, range ..2', { status: 'validated', kinds: ['contract_call'], blocks: { to: 2 } }, ['1.1']);
  await walks('methods, range 2..', { status: 'validated', methodIds: [m1], blocks: { from: 2 } }, ['3.0']);
  t.same(
    (await s.listTransactions({ status: 'validated', address: A }, page({ blockNumber: 2, index: 0 }, 100, 'asc'))).map(key),
    ['2.1'],
  );
  // pending: the same address rules; no pending transaction is in a block range
  await walks('pending', { status: 'pending' }, ['p3000:A', 'p2000:B', 'p2000:C', 'p1000:B']);
  await walks('pending A', { status: 'pending', address: A }, ['p3000:A', 'p2000:B', 'p1000:B']);
  await walks('pending A from', { status: 'pending', address: A, direction: 'from' }, ['p3000:A']);
  await walks('pending A to', { status: 'pending', address: A, direction: 'to' }, ['p2000:B', 'p1000:B']);
  await walks('pending B to', { status: 'pending', address: B, direction: 'to' }, ['p3000:A', 'p2000:C']);
  await walks('pending, range', { status: 'pending', blocks: { from: 0 } }, []);
});

