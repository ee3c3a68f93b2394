/**
 * Chain statistics (over every store): counters, daily aggregates, block sums over a time
 * window, pending counts and contract activity — kept by writeBlocks, unchanged by a re-write,
 * moved exactly by a replacement and undone exactly by rollbackAbove.
 */
import type { Test } from 'tap';
import type { Address, BlockRecord, TransactionRecord } from '../../lib/domain/records.ts';
import type { ContractActivityFilter, ContractActivityRecord, DataSource, VersionedDataSource } from '../../lib/ports.ts';
import { A, B, C, addr, block, bundle, page, tx, walksBothWays } from './records.ts';
import { storeTest } from './stores.ts';

const T0 = 1_700_000_000; // 2023-11-14T22:13:20Z
const K1 = addr(0x4b1);
const K2 = addr(0x4b2);

interface Spend {
  readonly to: Address | null;
  readonly gasUsed: bigint;
  readonly gasPrice: bigint;
}

/** A consensus block at `timestamp` whose derived totals match its transactions. */
function statBlock(number: number, timestamp: number, spends: readonly Spend[], o: { tag?: string; coins?: readonly Address[]; contracts?: readonly Address[] } = {}) {
  const base = block(number, { tag: o.tag });
  const gasUsed = spends.reduce((s, x) => s + x.gasUsed, 0n);
  const fees = spends.reduce((s, x) => s + x.gasUsed * x.gasPrice, 0n);
  const b: BlockRecord = { ...base, timestamp, gasUsed, transactionsCount: spends.length, transactionFees: fees };
  const transactions: TransactionRecord[] = spends.map((x, i) =>
    tx(b, i, {
      tag: `s${number}${o.tag ?? ''}.${i}`,
      to: x.to,
      createdContract: x.to === null ? addr(0xc0de00 + number * 10 + i) : null,
      gasUsed: x.gasUsed,
      gasPrice: x.gasPrice,
    }),
  );
  return bundle(b, {
    transactions,
    coinBalances: (o.coins ?? []).map((address) => ({ address, blockNumber: number, value: 1n })),
    addresses: (o.contracts ?? []).map((hash) => ({ hash, isContract: true, name: null, creationTransactionHash: null, creatorAddress: null, blockNumber: number })),
  });
}

const b1 = statBlock(
  1,
  T0,
  [
    { to: K1, gasUsed: 100n, gasPrice: 2n },
    { to: A, gasUsed: 21_000n, gasPrice: 2n },
  ],
  { coins: [A, B], contracts: [K1, K2] },
);
const b2 = statBlock(
  2,
  T0 + 7200,
  [
    { to: K1, gasUsed: 50n, gasPrice: 3n },
    { to: K2, gasUsed: 500n, gasPrice: 3n },
    { to: K2, gasUsed: 500n, gasPrice: 3n },
  ],
  { coins: [B, C] },
);
const b3 = statBlock(
  3,
  T0 + 7300,
  [
    { to: K1, gasUsed: 10n, gasPrice: 5n },
    { to: null, gasUsed: 90_000n, gasPrice: 5n },
  ],
  { coins: [K1, A] },
);
/** a replacement of block 3: one call to K2, a new address */
const b3x = statBlock(3, T0 + 7310, [{ to: K2, gasUsed: 7n, gasPrice: 1n }], { tag: 'x', coins: [addr(0xdd)] });

const ALL_DAYS = { from: '2000-01-01', to: '2100-01-01' };
const days: ContractActivityFilter = { window: { days: ALL_DAYS } };
const key = (r: ContractActivityRecord) => `${r.contract}:${r.transactionsCount}:${r.gasUsed}`;
const cursorOf = (r: ContractActivityRecord) => ({ transactionsCount: r.transactionsCount, gasUsed: r.gasUsed, contract: r.contract });

async function snapshot(s: VersionedDataSource) {
  return {
    counters: await s.getChainCounters(),
    days: await s.listDailyStats(ALL_DAYS),
    activity: await s.listContractActivity(days, page(null, 100)),
    sum: await s.sumBlocks({ from: 0, to: T0 * 2 }),
  };
}

async function walks(t: Test, s: VersionedDataSource, label: string, filter: ContractActivityFilter, expected: string[]) {
  await walksBothWays(t, label, (p) => s.listContractActivity(filter, p), cursorOf, key, expected);
}

storeTest('chain statistics: counters, days, windows and contract activity', async (t, s) => {
  t.same(await s.getChainCounters(), { blocks: 0, transactions: 0, addresses: 0, gasUsed: 0n, coinSupply: 0n, zeroAddressCoinBalance: 0n }, 'an empty store counts nothing');
  t.same(await s.listDailyStats(ALL_DAYS), [], 'an empty store has no days');
  await s.writeBlocks([b1]);
  const afterB1 = await snapshot(s);
  await s.writeBlocks([b2, b3]);

  t.same(await s.getChainCounters(), { blocks: 3, transactions: 7, addresses: 4, gasUsed: 21_100n + 1_050n + 90_010n, coinSupply: 4n, zeroAddressCoinBalance: 0n }, 'counters');
  t.same(
    await s.listDailyStats(ALL_DAYS),
    [
      { date: '2023-11-15', transactionsCount: 5, gasUsed: 91_060n, feeSum: 3_150n + 450_050n },
      { date: '2023-11-14', transactionsCount: 2, gasUsed: 21_100n, feeSum: 42_200n },
    ],
    'days, newest first',
  );
  t.same(await s.listDailyStats({ from: '2023-11-14', to: '2023-11-14' }), [{ date: '2023-11-14', transactionsCount: 2, gasUsed: 21_100n, feeSum: 42_200n }], 'a one-day range');
  t.same(await s.listDailyStats({ from: '2023-11-16', to: '2023-12-01' }), [], 'days without blocks');
  t.same(await s.sumBlocks({ from: T0 + 1, to: T0 + 7300 }), { blocks: 2, transactions: 5, gasUsed: 91_060n, fees: 453_200n }, 'a time window, bounds inclusive');
  t.same(await s.sumBlocks({ from: T0 + 7301, to: T0 + 9999 }), { blocks: 0, transactions: 0, gasUsed: 0n, fees: 0n }, 'an empty window');

  // contract activity: A is no contract, a creation has no `to`
  await walks(t, s, 'days, by count', days, [`${K1}:3:160`, `${K2}:2:1000`]);
  await walks(t, s, 'days, by gas', { ...days, sort: 'gasUsed' }, [`${K2}:2:1000`, `${K1}:3:160`]);
  await walks(t, s, 'one day', { window: { days: { from: '2023-11-14', to: '2023-11-14' } } }, [`${K1}:1:100`]);
  await walks(t, s, 'time window: a count tie goes by gas', { window: { time: { from: T0 + 7200, to: T0 + 7300 } } }, [`${K2}:2:1000`, `${K1}:2:60`]);
  await walks(t, s, 'time window, by gas', { window: { time: { from: T0 + 7200, to: T0 + 7300 } }, sort: 'gasUsed' }, [`${K2}:2:1000`, `${K1}:2:60`]);
  await walks(t, s, 'time window of one block', { window: { time: { from: T0 + 7300, to: T0 + 7300 } } }, [`${K1}:1:10`]);
  t.same(
    (await s.listContractActivity(days, page({ transactionsCount: 2, gasUsed: 1000n, contract: K1 }))).map(key),
    [`${K2}:2:1000`],
    'a cursor tied on both counts resumes at the next contract',
  );
  t.same((await s.listContractActivity(days, page(null, 0))).length, 0, 'limit 0');

  // pending transactions
  await s.writePendingTransactions([tx(null, 0, { tag: 'p1', insertedAt: 5_000 }), tx(null, 1, { tag: 'p2', insertedAt: 9_000 })]);
  t.equal(await s.countPendingTransactions({}), 2, 'pending: all');
  t.equal(await s.countPendingTransactions({ insertedSince: 9_000 }), 1, 'pending: since an instant (inclusive)');
  t.same((await s.getChainCounters()).transactions, 7, 'pending transactions are not in the mined count');

  // a re-write changes nothing
  const before = await snapshot(s);
  await s.writeBlocks([b1, b2, b3]);
  t.same(await snapshot(s), before, 'writing stored blocks again moves no statistic');

  // a replacement at height 3 takes block 3 back and adds its successor
  await s.writeBlocks([b3x]);
  t.same(await s.getChainCounters(), { blocks: 3, transactions: 6, addresses: 4, gasUsed: 21_100n + 1_050n + 7n, coinSupply: 4n, zeroAddressCoinBalance: 0n }, 'counters after a replacement');
  await walks(t, s, 'days after a replacement', days, [`${K2}:3:1007`, `${K1}:2:150`]);
  t.same((await s.listDailyStats({ from: '2023-11-15', to: '2023-11-15' }))[0]?.transactionsCount, 4, 'the day after a replacement');

  // rollback restores the statistics of block 1 alone, exactly
  await s.rollbackAbove(1);
  t.same(await snapshot(s), afterB1, 'rollbackAbove(1) restores every statistic of block 1');
  t.same(afterB1.counters, { blocks: 1, transactions: 2, addresses: 2, gasUsed: 21_100n, coinSupply: 2n, zeroAddressCoinBalance: 0n }, 'block 1 alone');
  await s.rollbackAbove(0);
  t.same(await s.getChainCounters(), { blocks: 0, transactions: 0, addresses: 0, gasUsed: 0n, coinSupply: 0n, zeroAddressCoinBalance: 0n }, 'an emptied store counts nothing');
  t.same(await s.listDailyStats(ALL_DAYS), [], 'an emptied store has no days');
  await walks(t, s, 'an emptied store', days, []);
});
