/** The native transfer rule: value without input, the sender's or an account's call. */
import t from 'tap';
import { nativeTransfers } from '../../../../lib/summary/rules/nativeTransfer.ts';
import { scopeOf } from '../../../../lib/summary/summarize.ts';
import { hex } from '../../../../lib/domain/hex.ts';
import { ALICE, BOB, input, said } from '../build.ts';

t.test('value to an address with no input: Transfer {amount} {native} to {to_address}', async (t) => {
  const items = nativeTransfers(scopeOf(input({ value: 1_500_000_000_000_000_000n })));
  t.same(items.map(said), [`Transfer 1.5 ETH to ${BOB}`]);
  t.same(items[0]?.variables.amount, { type: 'currency', value: '1.5' }, 'the amount in whole coins, a decimal string');
  t.notOk('native' in (items[0]?.variables ?? {}), '{native} has no variable: the frontend prints the coin');
  t.same(nativeTransfers(scopeOf(input({ value: 1n }))).map(said), [`Transfer 0.000000000000000001 ETH to ${BOB}`], 'one wei');
});

t.test('no value, a call with input, a creation: no native transfer', async (t) => {
  t.same(nativeTransfers(scopeOf(input({ value: 0n }))), []);
  t.same(nativeTransfers(scopeOf(input({ value: 5n, input: hex('0xd0e30db0') }))), [], 'a payable call is no transfer');
  t.same(nativeTransfers(scopeOf(input({ value: 5n, to: null, createdContract: ALICE }))), [], 'a creation with value');
});
