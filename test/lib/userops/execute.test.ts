/**
 * executeCallOf: the fifteen account execute-like methods of Blockscout's user-ops-indexer
 * (its EXECUTE_SELECTORS), each by its selector written out, give the call's target and inner
 * call data whatever follows the leading (address, uint256, bytes); any other method — a near
 * miss, a batch, ERC-7579's execute(bytes32,bytes) — and call data that does not decode give null.
 */
import t from 'tap';
import { encodeFunctionData, parseAbiItem, toFunctionSelector } from 'viem';
import type { AbiFunction } from 'viem';
import type { Address, Hex } from '../../../lib/domain/records.ts';
import { address, EMPTY_HEX, hex } from '../../../lib/domain/hex.ts';
import { executeCallOf } from '../../../lib/userops/execute.ts';

const TARGET: Address = address('0x00000000000000000000000000000000000c0ffe');
const INNER: Hex = hex('0xa9059cbb00000000000000000000000000000000000000000000000000000000000000aa0000000000000000000000000000000000000000000000000000000000000005');
const OTHER: Address = address('0x00000000000000000000000000000000000000bb');

/** Blockscout's list, with the selector each one has (written out, not computed by the code under test) */
const BLOCKSCOUT: readonly (readonly [Hex, string, readonly unknown[]])[] = [
  [hex('0x51945447'), 'execute(address,uint256,bytes,uint8)', [1]],
  [hex('0xb61d27f6'), 'execute(address,uint256,bytes)', []],
  [hex('0x0000189a'), 'execute_ncC(address,uint256,bytes)', []],
  [hex('0x70641a22'), 'execTransactionFromEntrypoint(address,uint256,bytes)', []],
  [hex('0x940d3c60'), 'executeAndRevert(address,uint256,bytes,uint8)', [0]],
  [hex('0x80c5c7d0'), 'execFromEntryPoint(address,uint256,bytes)', []],
  [hex('0xf34308ef'), 'execTransactionFromEntrypoint(address,uint256,bytes,uint8,address,address,uint256)', [1, OTHER, OTHER, 9n]],
  [hex('0x9e5d4c49'), 'executeCall(address,uint256,bytes)', []],
  [hex('0x7bb37428'), 'executeUserOp(address,uint256,bytes,uint8)', [0]],
  [hex('0xe007fd8d'), 'execFromEntryPointWithFee(address,uint256,bytes,(address,address,uint256))', [[OTHER, OTHER, 3n]]],
  [hex('0x2694bd1d'), 'execTransactionFromEntrypoint(address,uint256,bytes,uint8)', [0]],
  [hex('0x9bd9bbc6'), 'send(address,uint256,bytes)', []],
  [hex('0xda0980c7'), 'execute(address,uint256,bytes,bytes)', ['0x1234']],
  [hex('0x2e9feb79'), 'callContract(address,uint256,bytes,bool)', [true]],
  [hex('0x0565bb67'), 'exec(address,uint256,bytes)', []],
];

const fn = (signature: string): AbiFunction => parseAbiItem(`function ${signature}`) as AbiFunction;

t.test('each of Blockscout’s fifteen selectors: the target and the inner call data', async (t) => {
  t.equal(new Set(BLOCKSCOUT.map(([s]) => s)).size, 15, 'fifteen distinct selectors');
  for (const [selector, signature, rest] of BLOCKSCOUT) {
    const abiItem = fn(signature);
    t.equal(toFunctionSelector(abiItem), selector, `${signature} is ${selector}`);
    const data = hex(encodeFunctionData({ abi: [abiItem], functionName: abiItem.name, args: [TARGET, 5n, INNER, ...rest] }));
    t.equal(data.slice(0, 10), selector);
    t.same(executeCallOf(data), { target: TARGET, callData: INNER }, `${signature}: decoded`);
    t.same(executeCallOf(hex(encodeFunctionData({ abi: [abiItem], functionName: abiItem.name, args: [TARGET, 0n, '0x', ...rest] }))), { target: TARGET, callData: '0x' }, `${signature}: empty inner call data`);
    t.same(executeCallOf(data.toUpperCase().replace('0X', '0x') as Hex), { target: TARGET, callData: INNER }, `${signature}: upper-case hex read alike`);
  }
});

t.test('other methods and call data that does not decode: null', async (t) => {
  const not = [
    // the three-argument callContract is not Blockscout's (its callContract carries a bool)
    'callContract(address,uint256,bytes)',
    'executeBatch(address[],uint256[],bytes[])',
    'executeBatch((address,uint256,bytes)[])',
    'transfer(address,uint256)',
  ];
  for (const signature of not) {
    const abiItem = fn(signature);
    const args = abiItem.inputs.length === 3 && abiItem.inputs[0]?.type === 'address' ? [TARGET, 5n, INNER] : abiItem.name === 'transfer' ? [TARGET, 5n] : abiItem.inputs.length === 3 ? [[TARGET], [5n], [INNER]] : [[[TARGET, 5n, INNER]]];
    t.equal(executeCallOf(hex(encodeFunctionData({ abi: [abiItem], functionName: abiItem.name, args }))), null, signature);
  }
  const erc7579 = fn('execute(bytes32,bytes)');
  t.equal(toFunctionSelector(erc7579), '0xe9ae5c53');
  t.equal(executeCallOf(hex(encodeFunctionData({ abi: [erc7579], functionName: 'execute', args: [`0x${'00'.repeat(32)}`, INNER] }))), null, 'ERC-7579 execute(bytes32,bytes)');

  const good = encodeFunctionData({ abi: [fn('execute(address,uint256,bytes)')], functionName: 'execute', args: [TARGET, 5n, INNER] });
  t.equal(executeCallOf(EMPTY_HEX), null, 'empty');
  t.equal(executeCallOf(hex('0xb61d27')), null, 'a partial selector');
  t.equal(executeCallOf(hex('0xb61d27f6')), null, 'the selector alone');
  t.equal(executeCallOf(good.slice(0, 10 + 64 * 2) as Hex), null, 'target and value only');
  t.equal(executeCallOf(good.slice(0, good.length - 64) as Hex), null, 'inner bytes cut short');
  const farOffset = `${good.slice(0, 10 + 128)}${(0x10000n).toString(16).padStart(64, '0')}${good.slice(10 + 192)}` as Hex;
  t.equal(executeCallOf(farOffset), null, 'a bytes offset past the end');
});
