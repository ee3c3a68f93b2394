/**
 * listWithdrawals and getWithdrawalTotals (the port suite, over every store): index DESC walks
 * with and without an address or a block range, consensus rows only, idempotent re-writes,
 * totals kept across replacement and rollback.
 */
import type { Address, BlockRecord, WithdrawalRecord } from '../../lib/domain/records.ts';
import type { WithdrawalCursor, WithdrawalFilter } from '../../lib/ports.ts';
import { A, B, C, block, bundle, page, walksBothWays } from './records.ts';
import { storeTest } from './stores.ts';

const w = (b: BlockRecord, index: number, address: Address, amount: bigint, validatorIndex = 1000 + index): WithdrawalRecord => ({
  index,
  validatorIndex,
  address,
  amount,
  blockNumber: b.number,
  blockHash: b.hash,
  timestamp: b.timestamp,
});
const key = (r: WithdrawalRecord) => `${r.index}@${r.blockNumber}`;
const cursorOf = (r: WithdrawalRecord): WithdrawalCursor => ({ index: r.index });

storeTest('withdrawals: lists, totals, reorgs', async (t, s) => {
  const [b1, b2, b3, b5] = [block(1), block(2), block(3), block(5)];
  const side = block(4, { tag: 'side', consensus: false });
  const big = 2n ** 100n;
  const bundles = [
    bundle(b1, { withdrawals: [w(b1, 0, A, 10n), w(b1, 1, B, 11n), w(b1, 2, A, 12n)] }),
    bundle(b2),
    bundle(b3, { withdrawals: [w(b3, 3, C, 13n), w(b3, 4, A, big)] }),
    bundle(side, { withdrawals: [w(side, 5, A, 999n)] }),
    bundle(b5, { withdrawals: [w(b5, 6, B, 0n), w(b5, 7, B, 17n)] }),
  ];
  await s.writeBlocks(bundles);
  await s.writeBlocks(bundles.slice(2)); // stored already: nothing changes
  const list = (f: WithdrawalFilter) => (p: Parameters<typeof s.listWithdrawals>[1]) => s.listWithdrawals(f, p);
  await walksBothWays(t, 'all', list({}), cursorOf, key, ['7@5', '6@5', '4@3', '3@3', '2@1', '1@1', '0@1']);
  await walksBothWays(t, 'to A', list({ address: A }), cursorOf, key, ['4@3', '2@1', '0@1']);
  await walksBothWays(t, 'to B', list({ address: B }), cursorOf, key, ['7@5', '6@5', '1@1']);
  await walksBothWays(t, 'block 1', list({ blocks: { from: 1, to: 1 } }), cursorOf, key, ['2@1', '1@1', '0@1']);
  await walksBothWays(t, 'blocks 2..5', list({ blocks: { from: 2, to: 5 } }), cursorOf, key, ['7@5', '6@5', '4@3', '3@3']);
  await walksBothWays(t, 'A in 3..', list({ address: A, blocks: { from: 3 } }), cursorOf, key, ['4@3']);
  t.same(await s.listWithdrawals({ blocks: { from: 4, to: 4 } }, page()), [], 'a block that lost consensus lists none');
  t.same(await s.listWithdrawals({ address: block(9).miner }, page()), [], 'an address without withdrawals');
  t.same((await s.listWithdrawals({}, page({ index: 4 }, 100, 'desc'))).map(key), ['3@3', '2@1', '1@1', '0@1'], 'strictly below the cursor');
  t.same((await s.listWithdrawals({}, page({ index: 4 }, 100, 'asc'))).map(key), ['6@5', '7@5'], 'asc: strictly above');
  const [top] = await s.listWithdrawals({ address: A }, page({ index: 5 }, 1));
  t.same(top, w(b3, 4, A, big), 'the whole record, amount exact above 2^53');
  t.same(await s.getWithdrawalTotals(), { count: 7n, sum: 10n + 11n + 12n + 13n + big + 0n + 17n }, 'totals of consensus blocks');

  // a new consensus block at height 5 replaces the old one and its withdrawals
  const b5x = block(5, { tag: 'x' });
  await s.writeBlocks([bundle(b5x, { withdrawals: [w(b5x, 6, C, 100n)] })]);
  t.same((await s.listWithdrawals({}, page())).map(key), ['6@5', '4@3', '3@3', '2@1', '1@1', '0@1'], 'the replaced block took its rows');
  t.same((await s.listWithdrawals({ address: C }, page())).map((r) => r.amount), [100n, 13n]);
  t.same(await s.getWithdrawalTotals(), { count: 6n, sum: 10n + 11n + 12n + 13n + big + 100n }, 'totals follow the replacement');

  await s.rollbackAbove(2);
  t.same((await s.listWithdrawals({}, page())).map(key), ['2@1', '1@1', '0@1'], 'a rollback removes the rows above it');
  t.same(await s.getWithdrawalTotals(), { count: 3n, sum: 33n }, 'and takes them off the totals');
  await s.rollbackAbove(0);
  t.same(await s.getWithdrawalTotals(), { count: 0n, sum: 0n }, 'empty again');
});

storeTest('withdrawals: a malformed bundle is refused whole', async (t, s) => {
  const b1 = block(1);
  const other = block(2);
  await t.rejects(s.writeBlocks([bundle(b1, { withdrawals: [w(b1, 0, A, 1n), w(b1, 0, B, 2n)] })]), { name: 'InvalidWriteError' }, 'a repeated index');
  await t.rejects(s.writeBlocks([bundle(b1, { withdrawals: [w(other, 0, A, 1n)] })]), { name: 'InvalidWriteError' }, 'a row of another block');
  await t.rejects(s.writeBlocks([bundle(b1, { withdrawals: [{ ...w(b1, 0, A, 1n), address: '0xABC' as Address }] })]), { name: 'InvalidWriteError' }, 'upper-case hex');
  await t.rejects(s.writeBlocks([bundle(b1, { withdrawals: [w(b1, 0, A, -1n)] })]), { name: 'InvalidWriteError' }, 'a negative amount');
  t.same(await s.listWithdrawals({}, page()), [], 'nothing was written');
  t.same(await s.getWithdrawalTotals(), { count: 0n, sum: 0n });
});
