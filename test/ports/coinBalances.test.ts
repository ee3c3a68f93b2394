/** listCoinBalances and getCoinBalance (the port suite, over every store): one address's history, both orders, ranges, reorgs; its current balance. */
import type { CoinBalanceRecord } from '../../lib/domain/records.ts';
import type { CoinBalanceCursor } from '../../lib/ports.ts';
import { A, B, block, bundle, page, walksBothWays } from './records.ts';
import { storeTest } from './stores.ts';

const coin = (address: typeof A, blockNumber: number, value: bigint): CoinBalanceRecord => ({ address, blockNumber, value });
const key = (r: CoinBalanceRecord) => `${r.blockNumber}:${r.value}`;
const cursorOf = (r: CoinBalanceRecord): CoinBalanceCursor => ({ blockNumber: r.blockNumber });

storeTest('coin balance history of an address', async (t, s) => {
  const [b1, b2, b3, b5] = [block(1), block(2), block(3), block(5)];
  const side = block(4, { tag: 'side', consensus: false });
  await s.writeBlocks([
    bundle(b1, { coinBalances: [coin(A, 1, 10n), coin(B, 1, 7n)] }),
    // two records of one address in a block: the last one holds
    bundle(b2, { coinBalances: [coin(A, 2, 11n), coin(A, 2, 12n)] }),
    bundle(b3, { coinBalances: [coin(B, 3, 0n)] }),
    bundle(side, { coinBalances: [coin(A, 4, 999n)] }),
    bundle(b5, { coinBalances: [coin(A, 5, 2n ** 200n)] }),
  ]);
  const list = (f: Parameters<typeof s.listCoinBalances>[0]) => (p: Parameters<typeof s.listCoinBalances>[1]) => s.listCoinBalances(f, p);
  await walksBothWays(t, 'A', list({ address: A }), cursorOf, key, [`5:${2n ** 200n}`, '2:12', '1:10']);
  await walksBothWays(t, 'B', list({ address: B }), cursorOf, key, ['3:0', '1:7']);
  await walksBothWays(t, 'A in 2..4', list({ address: A, blocks: { from: 2, to: 4 } }), cursorOf, key, ['2:12']);
  t.same((await s.listCoinBalances({ address: A }, page({ blockNumber: 5 }, 100, 'desc'))).map(key), ['2:12', '1:10'], 'strictly past the cursor');
  t.same((await s.listCoinBalances({ address: A }, page({ blockNumber: 1 }, 1, 'asc'))).map(key), ['2:12']);
  t.same(await s.listCoinBalances({ address: block(9).miner }, page()), [], 'an address without history');
  t.same((await s.listCoinBalances({ address: A }, page(null, 1))).map(key), [`5:${2n ** 200n}`], 'the newest record is the current balance');
  t.equal(await s.getCoinBalance(A), 2n ** 200n, 'getCoinBalance: the newest consensus record (not the side block\'s)');
  t.equal(await s.getCoinBalance(B), 0n, 'a zero balance is one');
  t.equal(await s.getCoinBalance(block(9).miner), null, 'an address without history: null');

  await s.rollbackAbove(2);
  t.same((await s.listCoinBalances({ address: A }, page())).map(key), ['2:12', '1:10'], 'a rollback removes the history above it');
  t.equal(await s.getCoinBalance(A), 12n, 'and the current balance falls back to the newest record left');
});
