/** listLogs and listStateChanges. (the port suite, over every store). */
import type { Address, StateChangeRecord, TransactionRecord } from '../../lib/domain/records.ts';
import { h32, A, B, C, block, tx, log, address, bundle, page } from './records.ts';
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
  t.same((await s.listLogs({ transactionHash: x1.hash }, page())).map((l) => l.index), [2, 3, 4]);
  t.same((await s.listLogs({ transactionHash: x1.hash }, page({ index: 2 }, 1))).map((l) => l.index), [3]);
  t.same((await s.listStateChanges(x0.hash)).map((c) => c.address), [A, B, C]);
  t.same(await s.listStateChanges(h32('unknown')), []);
});
