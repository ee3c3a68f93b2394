/** listLogs and listStateChanges (the port suite, over every store). */
import type { Address, LogRecord, StateChangeRecord, TransactionRecord } from '../../lib/domain/records.ts';
import type { DataSource, LogCursor, Order } from '../../lib/ports.ts';
import { h32, A, B, C, T20, T721, block, tx, log, bundle, page, walksBothWays } from './records.ts';
import { storeTest } from './stores.ts';

storeTest('logs and state changes of a transaction', async (t, s) => {
  const b1 = block(1);
  const x0 = tx(b1, 0);
  const x1 = tx(b1, 1);
  const sc = (parent: TransactionRecord, ordinal: number, address: Address): StateChangeRecord => ({
    transactionHash: parent.hash, address, type: 'coin', tokenAddress: null, tokenId: null,
    balanceBefore: 1n, balanceAfter: 0n, isMiner: false, ordinal,
  });
  await s.writeBlocks([
    bundle(b1, {
      transactions: [x0, x1],
      logs: [log(x1, 4), log(x0, 1), log(x1, 2), log(x0, 0), log(x1, 3)],
      stateChanges: [sc(x0, 2, C), sc(x0, 0, A), sc(x0, 1, B), sc(x1, 0, A)],
    }),
  ]);
  t.same((await s.listLogs({ transactionHash: x1.hash }, page(null, 100, 'asc'))).map((l) => l.index), [2, 3, 4]);
  t.same((await s.listLogs({ transactionHash: x1.hash }, page({ blockNumber: 1, index: 2 }, 1, 'asc'))).map((l) => l.index), [3]);
  t.same((await s.listLogs({ transactionHash: x1.hash }, page({ blockNumber: 0, index: 4 }, 100, 'desc'))).map((l) => l.index), [3, 2], 'only the cursor index counts');
  t.same((await s.listStateChanges(x0.hash)).map((c) => c.address), [A, B, C]);
  t.same(await s.listStateChanges(h32('unknown')), []);
});

storeTest('logs by emitter and block range, both orders', async (t, s) => {
  const [b1, b2, b3] = [block(1), block(2), block(3)];
  const [x10, x11, x20, x30] = [tx(b1, 0), tx(b1, 1), tx(b2, 0), tx(b3, 0)];
  const side = block(3, { tag: 'side', consensus: false });
  const sideTx = tx(side, 0, { tag: 'side-tx' });
  await s.writeBlocks([
    bundle(side, { transactions: [sideTx], logs: [log(sideTx, 0, T721)] }),
    bundle(b1, { transactions: [x10, x11], logs: [log(x10, 0, T20), log(x10, 1, T721), log(x11, 2, T20)] }),
    bundle(b2, { transactions: [x20], logs: [log(x20, 0, T721), log(x20, 5, T721)] }),
    bundle(b3, { transactions: [x30], logs: [log(x30, 1, T20)] }),
  ]);
  const key = (l: LogRecord) => `${l.blockNumber}.${l.index}`;
  const cursorOf = (l: LogRecord): LogCursor => ({ blockNumber: l.blockNumber, index: l.index });
  type Filter = Parameters<DataSource['listLogs']>[0];
  const walks = (label: string, f: Filter, expected: readonly string[]) => walksBothWays(t, label, (p) => s.listLogs(f, p), cursorOf, key, expected);
  const list = async (f: Filter, after: LogCursor | null, order: Order) => (await s.listLogs(f, { after, limit: 100, order })).map(key);

  await walks('all', {}, ['3.1', '2.5', '2.0', '1.2', '1.1', '1.0']);
  await walks('T20', { address: T20 }, ['3.1', '1.2', '1.0']);
  await walks('T721', { address: T721 }, ['2.5', '2.0', '1.1']);
  await walks('unknown emitter', { address: A }, []);
  await walks('range 2..3', { blocks: { from: 2, to: 3 } }, ['3.1', '2.5', '2.0']);
  await walks('range ..1', { blocks: { to: 1 } }, ['1.2', '1.1', '1.0']);
  await walks('T721 range 2..', { address: T721, blocks: { from: 2 } }, ['2.5', '2.0']);
  await walks('tx x10', { transactionHash: x10.hash }, ['1.1', '1.0']);
  await walks('tx x10, T721', { transactionHash: x10.hash, address: T721 }, ['1.1']);
  t.same(await list({}, { blockNumber: 2, index: 0 }, 'desc'), ['1.2', '1.1', '1.0']);
  t.same(await list({}, { blockNumber: 2, index: 0 }, 'asc'), ['2.5', '3.1']);
  t.same(await list({ address: T20 }, { blockNumber: 1, index: 2 }, 'asc'), ['3.1']);
  t.same(await list({ transactionHash: sideTx.hash }, null, 'asc'), [], 'no logs of non-consensus blocks');
  t.same(await list({ transactionHash: x20.hash, blocks: { to: 1 } }, null, 'asc'), [], 'a transaction outside the range');
});
