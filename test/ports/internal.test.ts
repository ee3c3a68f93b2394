/** listInternalTransactions: hidden top calls, address directions, per-transaction order. (the port suite, over every store). */
import type { InternalTransactionRecord } from '../../lib/domain/records.ts';
import type { InternalTransactionCursor, DataSource } from '../../lib/ports.ts';
import { A, B, C, block, tx, itx, address, bundle, walk } from './records.ts';
import { storeTest } from './stores.ts';

storeTest('internal transactions: top call hidden, direction rules, per-transaction order', async (t, s) => {
  const b1 = block(1);
  const b2 = block(2);
  const x10 = tx(b1, 0);
  const x11 = tx(b1, 1, { to: null, createdContract: C });
  const x20 = tx(b2, 0);
  const rows = [
    itx(x10, 0, 'call', A, B), // top-level call: never listed
    itx(x10, 1, 'call', B, A),
    itx(x10, 2, 'delegatecall', A, A), // self: listed once for A
    itx(x11, 0, 'create', A, null, C), // index-0 create: listed
    itx(x11, 1, 'create2', C, null, B),
  ];
  const rows2 = [itx(x20, 0, 'call', A, B), itx(x20, 1, 'staticcall', B, C), itx(x20, 2, 'selfdestruct', C, A)];
  await s.writeBlocks([
    bundle(b1, { transactions: [x10, x11], internalTransactions: rows }),
    bundle(b2, { transactions: [x20], internalTransactions: rows2 }),
  ]);
  const key = (r: InternalTransactionRecord) => `${r.blockNumber}.${r.transactionIndex}.${r.index}`;
  const list = async (f: Parameters<DataSource['listInternalTransactions']>[0], after: { blockNumber: number; transactionIndex: number; index: number } | null = null, limit = 100) =>
    (await s.listInternalTransactions(f, { after, limit })).map(key);

  t.same(await list({}), ['2.0.2', '2.0.1', '1.1.1', '1.1.0', '1.0.2', '1.0.1']);
  t.same(await list({ address: A }), ['2.0.2', '1.1.0', '1.0.2', '1.0.1']);
  t.same(await list({ address: A, direction: 'from' }), ['1.1.0', '1.0.2']);
  t.same(await list({ address: A, direction: 'to' }), ['2.0.2', '1.0.2', '1.0.1']);
  t.same(await list({ address: C, direction: 'to' }), ['2.0.1', '1.1.0'], 'created contract counts as to');
  t.same(await list({ address: C }), ['2.0.2', '2.0.1', '1.1.1', '1.1.0']);
  t.same(await list({ address: B, direction: 'to' }), ['1.1.1'], 'top call to B is hidden');
  t.same(await list({ address: A }, { blockNumber: 1, transactionIndex: 1, index: 0 }, 1), ['1.0.2']);
  const walked = await walk<InternalTransactionRecord, InternalTransactionCursor>(
    (after, limit) => s.listInternalTransactions({ address: A }, { after, limit }),
    (r) => ({ blockNumber: r.blockNumber, transactionIndex: r.transactionIndex, index: r.index }),
    1,
  );
  t.same(walked.map(key), ['2.0.2', '1.1.0', '1.0.2', '1.0.1']);
  t.same(await list({ transactionHash: x10.hash }), ['1.0.1', '1.0.2'], 'index ASC within a transaction');
  t.same(await list({ transactionHash: x11.hash }), ['1.1.0', '1.1.1']);
  t.same(await list({ transactionHash: x10.hash }, { blockNumber: 99, transactionIndex: 99, index: 1 }), ['1.0.2']);
});
