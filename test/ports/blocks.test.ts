/** listBlocks: order, cursor, miner filter. (the port suite, over every store). */
import { A, MINER, block, bundle, page } from './records.ts';
import { storeTest } from './stores.ts';

storeTest('listBlocks order and cursor', async (t, s) => {
  await s.writeBlocks([3, 1, 2, 5, 4].map((n) => bundle(block(n, { miner: n % 2 === 0 ? A : MINER }))));
  t.same((await s.listBlocks({ kind: 'block' }, page())).map((b) => b.number), [5, 4, 3, 2, 1]);
  t.same((await s.listBlocks({ kind: 'block' }, page({ number: 4 }, 2))).map((b) => b.number), [3, 2]);
  t.same((await s.listBlocks({ kind: 'block', miner: A }, page())).map((b) => b.number), [4, 2]);
  t.same((await s.listBlocks({ kind: 'block', miner: A }, page({ number: 4 }))).map((b) => b.number), [2]);
  t.same(await s.listBlocks({ kind: 'block' }, page(null, 0)), []);
  t.equal(await s.getHighestBlockNumber(), 5);
});
