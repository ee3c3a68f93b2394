/** listBlocks: order, cursor, miner filter, block range (the port suite, over every store). */
import type { BlockRecord } from '../../lib/domain/records.ts';
import type { BlockCursor, BlockFilter, Page } from '../../lib/ports.ts';
import { A, C, MINER, block, bundle, page, walksBothWays } from './records.ts';
import { storeTest } from './stores.ts';

storeTest('listBlocks order and cursor', async (t, s) => {
  await s.writeBlocks([3, 1, 2, 5, 4].map((n) => bundle(block(n, { miner: n % 2 === 0 ? A : MINER }))));
  const key = (b: BlockRecord) => String(b.number);
  const cursorOf = (b: BlockRecord): BlockCursor => ({ number: b.number });
  const walks = (label: string, f: BlockFilter, expected: readonly string[]) => walksBothWays(t, label, (p) => s.listBlocks(f, p), cursorOf, key, expected);
  await walks('blocks', { kind: 'block' }, ['5', '4', '3', '2', '1']);
  t.same((await s.listBlocks({ kind: 'block' }, page({ number: 4 }, 2))).map((b) => b.number), [3, 2]);
  t.same((await s.listBlocks({ kind: 'block' }, page({ number: 4 }, 2, 'asc'))).map((b) => b.number), [5]);
  await walks('miner A', { kind: 'block', miner: A }, ['4', '2']);
  t.same((await s.listBlocks({ kind: 'block', miner: A }, page({ number: 4 }))).map((b) => b.number), [2]);
  await walks('range 2..4', { kind: 'block', blocks: { from: 2, to: 4 } }, ['4', '3', '2']);
  await walks('range ..2', { kind: 'block', blocks: { to: 2 } }, ['2', '1']);
  await walks('miner MINER, range 2..', { kind: 'block', miner: MINER, blocks: { from: 2 } }, ['5', '3']);
  t.same(await s.listBlocks({ kind: 'block' }, page(null, 0)), []);
  t.same(await s.listBlocks({ kind: 'block', blocks: { from: 9 } }, page()), [], 'a range past the head');
  t.equal(await s.getHighestBlockNumber(), 5);
});

storeTest('listBlocks of non-consensus blocks: siblings at one height, both orders', async (t, s) => {
  const main = [block(1), block(2), block(3)];
  const side = [block(2, { tag: 'x', consensus: false, miner: C }), block(2, { tag: 'y', consensus: false }), block(3, { tag: 'z', consensus: false })];
  await s.writeBlocks([...side, ...main].map((b) => bundle(b)));
  const desc = (await s.listBlocks({ kind: 'reorg' }, page())).map((b) => b.hash);
  const expected = [...side].sort((a, b) => b.number - a.number || (a.hash < b.hash ? -1 : 1)).map((b) => b.hash);
  t.same(desc, expected, 'number DESC, hash ASC');
  t.same((await s.listBlocks({ kind: 'reorg' }, page(null, 100, 'asc'))).map((b) => b.hash), [...expected].reverse(), 'asc is the exact reverse');
  t.same((await s.listBlocks({ kind: 'reorg', blocks: { to: 2 } }, page(null, 100, 'asc'))).map((b) => b.number), [2, 2]);
  t.same((await s.listBlocks({ kind: 'reorg', miner: C }, page(null, 100, 'asc'))).map((b) => b.hash), [side[0].hash]);
});

storeTest('listBlockFigures: the records of listBlocks, narrowed to the figures', async (t, s) => {
  // figures beyond 2^53 and in the wei range, different per block, so a mixed-up column shows
  const figures = (b: BlockRecord): BlockRecord => ({
    ...b,
    timestamp: 1_700_000_000 + b.number * 12 + (b.consensus ? 0 : 1),
    gasUsed: BigInt(b.number) * 21_000n + (b.consensus ? 0n : 7n),
    gasLimit: 30_000_000n + BigInt(b.number),
    transactionFees: BigInt(b.number) * 10n ** 21n + 123_456_789_012_345_678n,
  });
  const main = [1, 2, 3, 4, 5].map((n) => figures(block(n, { miner: n % 2 === 0 ? A : MINER })));
  const side = [figures(block(3, { tag: 'x', consensus: false, miner: C })), figures(block(4, { tag: 'y', consensus: false }))];
  await s.writeBlocks([...side, ...main].map((b) => bundle(b)));
  const narrow = (b: BlockRecord) => ({ number: b.number, timestamp: b.timestamp, gasUsed: b.gasUsed, gasLimit: b.gasLimit, transactionFees: b.transactionFees });
  const filters: BlockFilter[] = [
    { kind: 'block' },
    { kind: 'block', miner: A },
    { kind: 'block', blocks: { from: 2, to: 4 } },
    { kind: 'reorg' },
    { kind: 'reorg', miner: C },
    { kind: 'uncle' },
  ];
  const pages: Page<BlockCursor>[] = [page(), page(null, 2), page({ number: 4 }, 2), page(null, 100, 'asc'), page({ number: 2 }, 2, 'asc'), page(null, 0)];
  for (const f of filters) {
    for (const p of pages) {
      t.same(await s.listBlockFigures(f, p), (await s.listBlocks(f, p)).map(narrow), `${JSON.stringify(f)} ${JSON.stringify(p)}`);
    }
  }
  t.same(
    await s.listBlockFigures({ kind: 'block' }, page(null, 2)),
    [narrow(main[4]), narrow(main[3])],
    'the newest first, every figure exact (bigints past 2^53 included)',
  );
  t.same((await s.listBlockFigures({ kind: 'reorg' }, page())).map((b) => b.number), [4, 3], 'non-consensus blocks on their own');
  for (const figure of await s.listBlockFigures({ kind: 'block' }, page())) {
    t.same(Object.keys(figure).sort(), ['gasLimit', 'gasUsed', 'number', 'timestamp', 'transactionFees'], `block ${figure.number}: the five figures only`);
  }
});
