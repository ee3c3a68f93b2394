/** The mint and burn rules: transfers from and to the zero address. */
import t from 'tap';
import { burns, mints } from '../../../../lib/summary/rules/mintsBurns.ts';
import { ALICE, BOB, fungible, ITEM, nft, PUNK, TOKENS, USD, ZERO, said } from '../build.ts';

t.test('mints: from the zero address, to the receiver', async (t) => {
  t.same(mints([fungible(USD, ZERO, BOB, 1_500_000n)], TOKENS).map(said), [`Mint 1.5 USD to ${BOB}`]);
  t.same(mints([nft(PUNK, 'ERC-721', ZERO, BOB, [1n, 2n])], TOKENS).map(said), [`Mint PUNK #1 to ${BOB}`, `Mint PUNK #2 to ${BOB}`]);
  t.same(mints([nft(ITEM, 'ERC-1155', ZERO, ZERO, [9n], [5n])], TOKENS).map(said), ['Mint 5 ITEM #9'], 'a spawn (to zero too): no receiver');
  t.same(mints([fungible(USD, ALICE, BOB, 1n)], TOKENS), [], 'a transfer is no mint');
});

t.test('burns: to the zero address, from the holder', async (t) => {
  t.same(burns([fungible(USD, ALICE, ZERO, 3_000_000n)], TOKENS).map(said), [`Burn 3 USD from ${ALICE}`]);
  t.same(burns([nft(PUNK, 'ERC-721', ALICE, ZERO, [4n])], TOKENS).map(said), [`Burn PUNK #4 from ${ALICE}`]);
  t.same(burns([nft(ITEM, 'ERC-1155', ZERO, ZERO, [9n], [5n])], TOKENS), [], 'a spawn is no burn');
});
