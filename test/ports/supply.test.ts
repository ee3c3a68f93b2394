/**
 * The kept coin supply (ChainCounters.coinSupply, zeroAddressCoinBalance) and the batch of
 * current coin balances (getCoinBalances), over every store: moved by new − old current
 * balance as blocks are written, out of order too, unchanged by a re-write, moved exactly by a
 * replacement and undone exactly by rollbackAbove.
 */
import type { Address, BlockBundle } from '../../lib/domain/records.ts';
import type { DataSource } from '../../lib/ports.ts';
import { A, B, C, ZERO, addr, block, bundle } from './records.ts';
import { storeTest } from './stores.ts';

const D = addr(0xd);

/** A consensus block recording these current coin balances. */
function coins(number: number, balances: readonly (readonly [Address, bigint])[], tag?: string): BlockBundle {
  return bundle(block(number, { tag }), { coinBalances: balances.map(([address, value]) => ({ address, blockNumber: number, value })) });
}

async function supply(s: DataSource): Promise<readonly [bigint, bigint]> {
  const c = await s.getChainCounters();
  return [c.coinSupply, c.zeroAddressCoinBalance];
}

/** Σ of the positive current balances of `addresses`, and the zero address's balance, from getCoinBalances. */
async function summed(s: DataSource, addresses: readonly Address[]): Promise<readonly [bigint, bigint]> {
  const rows = await s.getCoinBalances(addresses);
  return [rows.reduce((sum, r) => sum + (r.value > 0n ? r.value : 0n), 0n), rows.find((r) => r.address === ZERO)?.value ?? 0n];
}

const EVERYONE = [A, B, C, D, ZERO];

const b1 = coins(1, [
  [A, 100n],
  [B, 50n],
  [ZERO, 7n],
]);
// A spends, C appears with 0 (not counted), B is untouched
const b2 = coins(2, [
  [A, 60n],
  [C, 0n],
]);
// the zero address burns more, A's balance changes twice in the block (the later row is current)
const b3 = coins(3, [
  [ZERO, 9n],
  [A, 61n],
  [A, 62n],
  [D, 1_000_000_000_000_000_000_000n],
]);
// a replacement of block 3: D never gets its coins, A ends at 0
const b3x = coins(
  3,
  [
    [A, 0n],
    [C, 5n],
  ],
  'x',
);

storeTest('coin supply: kept on write, re-write, replacement and rollback', async (t, s) => {
  t.same(await supply(s), [0n, 0n], 'an empty store has no supply');
  t.same(await s.getCoinBalances(EVERYONE), [], 'an empty store has no balances');

  await s.writeBlocks([b1]);
  t.same(await supply(s), [157n, 7n], 'block 1: Σ of the positive balances, the zero address included');
  await s.writeBlocks([b2, b3]);
  const expected: readonly [bigint, bigint] = [62n + 50n + 9n + 1_000_000_000_000_000_000_000n, 9n];
  t.same(await supply(s), expected, 'blocks 2 and 3: new − old per address, a zero balance counts nothing');
  t.same(await summed(s, EVERYONE), expected, 'the supply equals the Σ of the current balances');
  t.same(
    await s.getCoinBalances([D, A, addr(0x777), A, C]),
    [
      { address: D, blockNumber: 3, value: 1_000_000_000_000_000_000_000n },
      { address: A, blockNumber: 3, value: 62n },
      { address: C, blockNumber: 2, value: 0n },
    ],
    'getCoinBalances: in the order asked, each once, unknown addresses absent, zero balances present',
  );
  t.same(await s.getCoinBalances([]), [], 'an empty batch');

  await s.writeBlocks([b1, b2, b3]);
  t.same(await supply(s), expected, 'a re-write moves nothing');

  await s.writeBlocks([b3x]);
  t.same(await supply(s), [50n + 5n + 7n, 7n], 'a replacement of block 3 takes back its balances and adds its successor’s');
  t.same(await summed(s, EVERYONE), [62n, 7n], 'the replacement’s current balances');
  t.same(await s.getCoinBalances([A]), [{ address: A, blockNumber: 3, value: 0n }], 'A after the replacement');

  await s.rollbackAbove(1);
  t.same(await supply(s), [157n, 7n], 'rollbackAbove(1) restores block 1’s supply exactly');
  t.same(await s.getCoinBalances([A, C, D]), [{ address: A, blockNumber: 1, value: 100n }], 'the balances of block 1 are current again');
  await s.rollbackAbove(0);
  t.same(await supply(s), [0n, 0n], 'an emptied store has no supply');
  t.same(await s.getCoinBalances(EVERYONE), [], 'an emptied store has no balances');
});

storeTest('coin supply: blocks written out of order', async (t, s) => {
  // a newer block first: the older one's rows are history, not current
  await s.writeBlocks([b3]);
  t.same(await supply(s), [62n + 9n + 1_000_000_000_000_000_000_000n, 9n], 'block 3 alone');
  await s.writeBlocks([b1]);
  t.same(await supply(s), [62n + 50n + 9n + 1_000_000_000_000_000_000_000n, 9n], 'block 1 later: only B’s balance is new');
  await s.writeBlocks([b2]);
  t.same(await supply(s), [62n + 50n + 9n + 1_000_000_000_000_000_000_000n, 9n], 'block 2 later: C at 0, A’s older balance is no change');
  t.same(await summed(s, EVERYONE), await supply(s), 'the supply equals the Σ of the current balances');
  await s.rollbackAbove(2);
  t.same(await supply(s), [60n + 50n + 7n, 7n], 'rolling back block 3 makes the older balances current');
  t.same(await summed(s, EVERYONE), await supply(s), 'still the Σ of the current balances');
});
