/** The account rule: execute / executeBatch decoded into the account's calls; the account is the actor. */
import t from 'tap';
import { accountCalls, accountScope } from '../../../../lib/summary/rules/accountExecute.ts';
import { summarize } from '../../../../lib/summary/summarize.ts';
import { ALICE, BOB, ROUTER, USD, callData, decoded, fungible, input, said } from '../build.ts';

const ACCOUNT = BOB;
const transfer = callData('transfer(address to, uint256 value)', [ALICE, 5n]);

t.test('execute(address,uint256,bytes): one call', async (t) => {
  const d = decoded('execute(address dest, uint256 value, bytes func)', [
    { name: 'dest', type: 'address', value: `0x${ALICE.slice(2).toUpperCase()}` }, // the decoder writes checksummed addresses,
    { name: 'value', type: 'uint256', value: '1000000000000000000' },
    { name: 'func', type: 'bytes', value: '0x' },
  ]);
  const scope = accountScope(input({ to: ACCOUNT }, { decodedInput: d }));
  t.same(scope, { actor: ACCOUNT, calls: [{ to: ALICE, value: 10n ** 18n, input: '0x', decoded: null }], viaAccount: true });
  t.same(summarize(input({ to: ACCOUNT }, { decodedInput: d })).map(said), [`Transfer 1 ETH to ${ALICE}`], "the account's native transfer");
});

t.test('executeBatch: tuples (v0.7+), parallel arrays with or without values (v0.6)', async (t) => {
  const tuples = decoded('executeBatch((address target, uint256 value, bytes data)[] calls)', [{ name: 'calls', type: 'tuple[]', value: [[USD, '0', transfer], [ALICE, '7', '0x']] }]);
  const decodeCall = (to: string, data: string) => (to === USD && data === transfer ? decoded('transfer(address to, uint256 value)', []) : null);
  const scope = accountScope(input({ to: ACCOUNT }, { decodedInput: tuples, decodeCall }));
  t.same(scope?.calls.map((c) => [c.to, c.value, c.decoded?.method_call ?? null]), [[USD, 0n, 'transfer(address to, uint256 value)'], [ALICE, 7n, null]]);
  const arrays = decoded('executeBatch(address[] dest, uint256[] value, bytes[] func)', [
    { name: 'dest', type: 'address[]', value: [USD, ROUTER] },
    { name: 'value', type: 'uint256[]', value: [] },
    { name: 'func', type: 'bytes[]', value: [transfer, '0xabcdef01'] },
  ]);
  t.same(accountScope(input({ to: ACCOUNT }, { decodedInput: arrays }))?.calls.map((c) => [c.to, c.value]), [[USD, 0n], [ROUTER, 0n]], 'an empty value array: no value');
  const v06 = decoded('executeBatch(address[] dest, bytes[] func)', [
    { name: 'dest', type: 'address[]', value: [USD] },
    { name: 'func', type: 'bytes[]', value: [transfer] },
  ]);
  t.same(accountScope(input({ to: ACCOUNT }, { decodedInput: v06 }))?.calls.map((c) => [c.to, c.value, c.input]), [[USD, 0n, transfer]]);
});

t.test('the account is the actor: its token transfers, and its calls when nothing else applies', async (t) => {
  const d = decoded('execute(address target, uint256 value, bytes data)', [
    { name: 'target', type: 'address', value: USD },
    { name: 'value', type: 'uint256', value: '0' },
    { name: 'data', type: 'bytes', value: transfer },
  ]);
  const moved = summarize(input({ to: ACCOUNT }, { decodedInput: d, tokenTransfers: [fungible(USD, ACCOUNT, ALICE, 5_000_000n)] }));
  t.same(moved.map(said), [`Transfer 5 USD to ${ALICE}`], 'sent by the account: no "from"');
  const quiet = input({ to: ACCOUNT }, { decodedInput: d, decodeCall: () => decoded('transfer(address to, uint256 value)', []) });
  t.same(summarize(quiet).map(said), [`Call transfer on ${USD}`], 'no transfer happened: the call, by method name');
  const scope = accountScope(input({ to: ACCOUNT }, { decodedInput: d }));
  t.same(scope === null ? [] : accountCalls(scope).map(said), [`Call ${transfer.slice(0, 10)} on ${USD}`], 'undecoded: the selector');
});

t.test('other methods and shapes are no account call', async (t) => {
  t.equal(accountScope(input({ to: ACCOUNT }, { decodedInput: decoded('transfer(address to, uint256 value)', [{ name: 'to', type: 'address', value: ALICE }, { name: 'value', type: 'uint256', value: '1' }]) })), null);
  t.equal(accountScope(input({ to: ACCOUNT }, { decodedInput: decoded('execute(bytes32 mode, bytes data)', [{ name: 'mode', type: 'bytes32', value: '0x00' }, { name: 'data', type: 'bytes', value: '0x' }]) })), null, 'ERC-7579 execute');
  t.equal(accountScope(input({ to: ACCOUNT }, { decodedInput: decoded('execute(address a, uint256 v, bytes d)', [{ name: 'a', type: 'address', value: 'nope' }, { name: 'v', type: 'uint256', value: '1' }, { name: 'd', type: 'bytes', value: '0x' }]) })), null, 'a malformed value');
  t.equal(accountScope(input({ to: ACCOUNT }, { decodedInput: null })), null, 'an input nothing decodes');
});
