/** listInternalTransactions: hidden top calls, address directions, per-transaction order. (the port suite, over every store). */
import type { InternalTransactionRecord } from '../../lib/domain/records.ts';
import type { DataSource, InternalTransactionCursor, Order } from '../../lib/ports.ts';
import { A, B, C, block, tx, itx, bundle, walksBothWays } from './records.ts';
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
  const cursorOf = (r: InternalTransactionRecord) => ({ blockNumber: r.blockNumber, transactionIndex: r.transactionIndex, index: r.index });
  type Filter = Parameters<DataSource['listInternalTransactions']>[0];
  const list = async (f: Filter, after: InternalTransactionCursor | null = null, limit = 100, order: Order = 'desc') =>
    (await s.listInternalTransactions(f, { after, limit, order })).map(key);
  const walks = (label: string, f: Filter, expected: readonly string[]) =>
    walksBothWays(t, label, (p) => s.listInternalTransactions(f, p), cursorOf, key, expected);

  await walks('all', {}, ['2.0.2', '2.0.1', '1.1.1', '1.1.0', '1.0.2', '1.0.1']);
  await walks('A any', { address: A }, ['2.0.2', '1.1.0', '1.0.2', '1.0.1']);
  t.same(await list({ address: A, direction: 'any' }), await list({ address: A }), "'any' is the default direction");
  await walks('A from', { address: A, direction: 'from' }, ['1.1.0', '1.0.2']);
  await walks('A to', { address: A, direction: 'to' }, ['2.0.2', '1.0.2', '1.0.1']);
  t.same(await list({ address: C, direction: 'to' }), ['2.0.1', '1.1.0'], 'created contract counts as to');
  await walks('C any', { address: C }, ['2.0.2', '2.0.1', '1.1.1', '1.1.0']);
  t.same(await list({ address: B, direction: 'to' }), ['1.1.1'], 'top call to B is hidden');
  t.same(await list({ address: A }, { blockNumber: 1, transactionIndex: 1, index: 0 }, 1), ['1.0.2']);
  t.same(await list({ address: A }, { blockNumber: 1, transactionIndex: 1, index: 0 }, 100, 'asc'), ['2.0.2'], 'asc: past the cursor upwards');
  // block ranges, inclusive at both ends
  await walks('range 2..2', { blocks: { from: 2, to: 2 } }, ['2.0.2', '2.0.1']);
  await walks('range ..1', { blocks: { to: 1 } }, ['1.1.1', '1.1.0', '1.0.2', '1.0.1']);
  await walks('A range 1..', { address: A, blocks: { from: 1 } }, ['2.0.2', '1.1.0', '1.0.2', '1.0.1']);
  t.same(await list({ blocks: { from: 3 } }), [], 'a range past the head');
  t.same(await list({ blocks: { from: 2, to: 1 } }), [], 'an empty range');
  // one transaction: index ASC is 'asc'; only the cursor's index counts
  await walks('tx x10', { transactionHash: x10.hash }, ['1.0.2', '1.0.1']);
  await walks('tx x11', { transactionHash: x11.hash }, ['1.1.1', '1.1.0']);
  t.same(await list({ transactionHash: x10.hash }, { blockNumber: 99, transactionIndex: 99, index: 1 }, 100, 'asc'), ['1.0.2']);
  t.same(await list({ transactionHash: x10.hash }, { blockNumber: 0, transactionIndex: 0, index: 2 }, 100, 'desc'), ['1.0.1']);
  t.same(await list({ transactionHash: x11.hash, address: B, direction: 'to' }, null, 100, 'asc'), ['1.1.1'], 'a transaction narrowed by address');
  t.same(await list({ transactionHash: x11.hash, blocks: { from: 2 } }), [], 'a transaction outside the range');
});
