/** The swap rule: the calls decode, and netted per asset one fungible asset left the actor and another came back. */
import t from 'tap';
import { swap } from '../../../../lib/summary/rules/swap.ts';
import { scopeOf, summarize } from '../../../../lib/summary/summarize.ts';
import { ALICE, BOB, POOL, PUNK, ROUTER, USD, WETH, callData, decoded, fungible, input, internal, nft, said } from '../build.ts';

const swapCall = callData('swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)', [1n, 1n, [USD, WETH], ALICE, 1n]);
const router = { to: ROUTER, input: swapCall };
const routerDecoded = { decodedInput: decoded('swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)', []) };
const run = (i: ReturnType<typeof input>) => swap(i, scopeOf(i));
const ETH = 10n ** 18n;

t.test('token for token: two transfers in opposite directions for the sender', async (t) => {
  const i = input(router, { ...routerDecoded, tokenTransfers: [fungible(USD, ALICE, POOL, 300_000_000n), fungible(WETH, POOL, ALICE, ETH / 10n)] });
  const item = run(i);
  t.same(item === null ? null : said(item), 'Swap 300 USD for 0.1 WETH');
  t.same(Object.keys(item?.variables ?? {}), ['action_type', 'outgoing_amount', 'outgoing_token', 'incoming_amount', 'incoming_token']);
  t.same(summarize(i).map(said), ['Swap 300 USD for 0.1 WETH'], 'said alone: not also as two transfers');
});

t.test('the coin on either side: {native}', async (t) => {
  const buy = input({ ...router, value: 2n * ETH }, { ...routerDecoded, tokenTransfers: [fungible(USD, POOL, ALICE, 5_000_000n)] });
  t.same(summarize(buy).map(said), ['Swap 2 ETH for 5 USD'], 'sent as value');
  const sell = input(router, { ...routerDecoded, tokenTransfers: [fungible(USD, ALICE, POOL, 5_000_000n)], internalTransactions: [internal(ROUTER, ALICE, ETH)] });
  t.same(summarize(sell).map(said), ['Swap 5 USD for 1 ETH'], 'received as an internal transaction');
  const refund = input({ ...router, value: 2n * ETH }, { ...routerDecoded, tokenTransfers: [fungible(USD, POOL, ALICE, 5_000_000n)], internalTransactions: [internal(ROUTER, ALICE, ETH / 2n)] });
  t.same(summarize(refund).map(said), ['Swap 1.5 ETH for 5 USD'], 'a refund is netted');
});

t.test('no swap: an input nothing decodes, one side only, two assets out, NFTs', async (t) => {
  const both = [fungible(USD, ALICE, POOL, 1n), fungible(WETH, POOL, ALICE, 1n)];
  t.equal(run(input(router, { tokenTransfers: both })), null, 'the router call does not decode');
  t.same(summarize(input(router, { tokenTransfers: both })).map(said), [`Transfer 0.000001 USD to ${POOL}`, `Transfer 0.000000000000000001 WETH from ${POOL} to ${ALICE}`], 'then the transfers are said');
  t.equal(run(input(router, { ...routerDecoded, tokenTransfers: [fungible(USD, ALICE, BOB, 1n)] })), null, 'a plain send');
  t.equal(run(input(router, { ...routerDecoded, tokenTransfers: [...both, fungible(PUNK, ALICE, POOL, 1n)] })), null, 'two assets out');
  t.equal(run(input(router, { ...routerDecoded, tokenTransfers: [fungible(USD, ALICE, POOL, 1n), nft(PUNK, 'ERC-721', POOL, ALICE, [1n])] })), null, 'an NFT in does not count');
  t.equal(run(input(router, { ...routerDecoded, tokenTransfers: [fungible(USD, ALICE, POOL, 1n), fungible(USD, POOL, ALICE, 1n)] })), null, 'the same asset back: nothing moved');
});

t.test("an account's batch (approve, then swap): the account swapped", async (t) => {
  const account = BOB;
  const batch = decoded('executeBatch((address target, uint256 value, bytes data)[] calls)', [
    { name: 'calls', type: 'tuple[]', value: [[USD, '0', callData('approve(address spender, uint256 value)', [ROUTER, 1n])], [ROUTER, '0', swapCall]] },
  ]);
  const i = input({ to: account }, { decodedInput: batch, decodeCall: (_to, data) => (data === swapCall ? decoded('swapExactTokensForTokens()', []) : null), tokenTransfers: [fungible(USD, account, POOL, 1_000_000n), fungible(WETH, POOL, account, ETH)] });
  t.same(summarize(i).map(said), ['Swap 1 USD for 1 WETH']);
});
