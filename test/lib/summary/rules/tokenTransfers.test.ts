/** The token transfer rule: ERC-20, ERC-721, ERC-1155 (single and batch), ERC-7984; the sender named when it is not the actor. */
import t from 'tap';
import { tokenTransfers } from '../../../../lib/summary/rules/tokenTransfers.ts';
import { ALICE, BOB, fungible, ITEM, nft, POOL, PUNK, TOKENS, USD, ZERO, addr, said } from '../build.ts';

t.test('fungible: the amount scaled by the decimals, to the receiver', async (t) => {
  t.same(tokenTransfers([fungible(USD, ALICE, BOB, 2_500_000n)], TOKENS, ALICE).map(said), [`Transfer 2.5 USD to ${BOB}`]);
  const unknown = addr(0xdead1);
  t.same(tokenTransfers([fungible(unknown, ALICE, BOB, 7n)], TOKENS, ALICE).map(said), [`Transfer 7 ${unknown} to ${BOB}`], 'unknown decimals: the raw amount');
});

t.test('a sender other than the actor (transferFrom, a payout) is named', async (t) => {
  t.same(tokenTransfers([fungible(USD, POOL, BOB, 1_000_000n)], TOKENS, ALICE).map(said), [`Transfer 1 USD from ${POOL} to ${BOB}`]);
});

t.test('NFTs: an ERC-721 by id, an ERC-1155 batch one summary per id', async (t) => {
  t.same(tokenTransfers([nft(PUNK, 'ERC-721', ALICE, BOB, [7n])], TOKENS, ALICE).map(said), [`Transfer PUNK #7 to ${BOB}`]);
  t.same(tokenTransfers([nft(ITEM, 'ERC-1155', ALICE, BOB, [1n, 2n], [10n, 20n])], TOKENS, ALICE).map(said), [`Transfer 10 ITEM #1 to ${BOB}`, `Transfer 20 ITEM #2 to ${BOB}`]);
  t.same(tokenTransfers([nft(ITEM, 'ERC-1155', ALICE, BOB, [3n], [4n])], TOKENS, ALICE).map(said), [`Transfer 4 ITEM #3 to ${BOB}`], 'a single ERC-1155 transfer');
  t.same(tokenTransfers([nft(ITEM, 'ERC-1155', ALICE, BOB, [5n, 7n, 5n], [1n, 1n, 3n])], TOKENS, ALICE).map(said), [`Transfer 4 ITEM #5 to ${BOB}`, `Transfer 1 ITEM #7 to ${BOB}`], 'a repeated id: its amounts summed, in first-seen order');
});

t.test('a confidential token (no amount): the token alone', async (t) => {
  const c = addr(0x7984);
  t.same(tokenTransfers([{ from: ALICE, to: BOB, tokenAddress: c, tokenType: 'ERC-7984', amount: null, tokenIds: [], amounts: [] }], TOKENS, ALICE).map(said), [`Transfer ${c} to ${BOB}`]);
});

t.test('mints and burns are not transfers here', async (t) => {
  t.same(tokenTransfers([fungible(USD, ZERO, BOB, 1n), fungible(USD, ALICE, ZERO, 1n)], TOKENS, ALICE), []);
});
