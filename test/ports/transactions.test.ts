/** listTransactions: pending and validated orders, cursors, filters. (the port suite, over every store). */
import type { Hex, TransactionRecord } from '../../lib/domain/records.ts';
import type { TransactionCursor } from '../../lib/ports.ts';
import { h32, block, tx, bundle, walk, page } from './records.ts';
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
    (after, limit) => s.listTransactions({ status: 'pending' }, { after, limit }),
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
  const m1: Hex = '0xa9059cbb';
  const m2: Hex = '0x095ea7b3';
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
      (after, l) => s.listTransactions({ status: 'validated' }, { after, limit: l }),
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
