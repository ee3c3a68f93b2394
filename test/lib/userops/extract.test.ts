import t from 'tap';
import { encodeAbiParameters, encodeEventTopics, encodeFunctionData, parseAbiParameters } from 'viem';
import type { Address, Hash, Hex } from '../../../lib/domain/records.ts';
import type { CallFrame, SourceBlock, SourceLog, SourceReceipt, SourceTransaction, TransactionTrace } from '../../../lib/chain-source.ts';
import {
  ENTRY_POINT_EVENTS_ABI,
  ENTRY_POINT_V06,
  ENTRY_POINT_V06_ABI,
  ENTRY_POINT_V07,
  ENTRY_POINT_V07_ABI,
  DEFAULT_ENTRY_POINTS,
  entryPointsWith,
  userOperationsOf,
} from '../../../lib/userops/index.ts';
import { userLogBounds } from '../../../lib/userops/logs.ts';
import { EMPTY_HEX, hex } from '../../../lib/domain/hex.ts';

const addr = (n: number): Address => `0x${n.toString(16).padStart(40, '0')}` as Address;
const h32 = (n: number): Hash => `0x${n.toString(16).padStart(64, '0')}` as Hash;
type Topics = readonly (`0x${string}` | `0x${string}`[] | null)[];
/** viem's topics of an event whose indexed arguments are all given (one topic each), marked */
const marked = (topics: Topics): Hex[] => (topics as readonly `0x${string}`[]).map((topic) => hex(topic));
const packed = (hi: bigint, lo: bigint): Hex => `0x${hi.toString(16).padStart(32, '0')}${lo.toString(16).padStart(32, '0')}` as Hex;

const BUNDLER = addr(0xb0b);
const BENEFICIARY = addr(0xbe7e);
const SENDER_A = addr(0xa1);
const SENDER_B = addr(0xb1);
const FACTORY = addr(0xfac);
const PAYMASTER = addr(0x9a1);
const TOKEN = addr(0x70c);

// ---- logs built by code ----
let logIndex = 0;
function log(address: Address, topics: readonly Hex[], data: Hex, tx: Hash): SourceLog {
  return { address, topics, data, logIndex: logIndex++, transactionHash: tx, transactionIndex: 0 };
}
const beforeExecution = (ep: Address, tx: Hash): SourceLog => log(ep, marked(encodeEventTopics({ abi: ENTRY_POINT_EVENTS_ABI, eventName: 'BeforeExecution' })), EMPTY_HEX, tx);
function opEvent(ep: Address, tx: Hash, o: { hash: Hash; sender: Address; paymaster?: Address; nonce: bigint; success: boolean; cost: bigint; used: bigint }): SourceLog {
  const topics = marked(encodeEventTopics({ abi: ENTRY_POINT_EVENTS_ABI, eventName: 'UserOperationEvent', args: { userOpHash: o.hash, sender: o.sender, paymaster: o.paymaster ?? addr(0) } }));
  return log(ep, topics, hex(encodeAbiParameters(parseAbiParameters('uint256, bool, uint256, uint256'), [o.nonce, o.success, o.cost, o.used])), tx);
}
function revertReason(ep: Address, tx: Hash, hash: Hash, sender: Address, nonce: bigint, reason: Hex): SourceLog {
  const topics = marked(encodeEventTopics({ abi: ENTRY_POINT_EVENTS_ABI, eventName: 'UserOperationRevertReason', args: { userOpHash: hash, sender } }));
  return log(ep, topics, hex(encodeAbiParameters(parseAbiParameters('uint256, bytes'), [nonce, reason])), tx);
}
function accountDeployed(ep: Address, tx: Hash, hash: Hash, sender: Address): SourceLog {
  const topics = marked(encodeEventTopics({ abi: ENTRY_POINT_EVENTS_ABI, eventName: 'AccountDeployed', args: { userOpHash: hash, sender } }));
  return log(ep, topics, hex(encodeAbiParameters(parseAbiParameters('address, address'), [FACTORY, addr(0)])), tx);
}
function deposited(ep: Address, tx: Hash, account: Address): SourceLog {
  const topics = marked(encodeEventTopics({ abi: ENTRY_POINT_EVENTS_ABI, eventName: 'Deposited', args: { account } }));
  return log(ep, topics, hex(encodeAbiParameters(parseAbiParameters('uint256'), [1n])), tx);
}
const userLog = (emitter: Address, tx: Hash): SourceLog => log(emitter, [h32(0x7777)], EMPTY_HEX, tx);

// ---- operations ----
interface Op07 {
  sender: Address;
  nonce: bigint;
  initCode: Hex;
  callData: Hex;
  accountGasLimits: Hex;
  preVerificationGas: bigint;
  gasFees: Hex;
  paymasterAndData: Hex;
  signature: Hex;
}
const op07 = (sender: Address, nonce: bigint, extra: Partial<Op07> = {}): Op07 => ({
  sender,
  nonce,
  initCode: EMPTY_HEX,
  callData: hex('0xb61d27f6'),
  accountGasLimits: packed(100_000n, 50_000n),
  preVerificationGas: 21_000n,
  gasFees: packed(2n, 30n),
  paymasterAndData: EMPTY_HEX,
  signature: hex('0x1234'),
  ...extra,
});
const op06 = (sender: Address, nonce: bigint, paymasterAndData: Hex = EMPTY_HEX) => ({
  sender,
  nonce,
  initCode: '0x' as Hex,
  callData: '0xabcd' as Hex,
  callGasLimit: 10n,
  verificationGasLimit: 20n,
  preVerificationGas: 5n,
  maxFeePerGas: 7n,
  maxPriorityFeePerGas: 3n,
  paymasterAndData,
  signature: '0x99' as Hex,
});

function tx(hash: Hash, to: Address | null, input: Hex, index = 0): SourceTransaction {
  return {
    hash,
    blockNumber: 10,
    blockHash: h32(0xb10c),
    index,
    from: BUNDLER,
    to,
    value: 0n,
    gas: 1_000_000n,
    gasPrice: 1n,
    maxFeePerGas: null,
    maxPriorityFeePerGas: null,
    nonce: 0,
    type: 2,
    input,
  };
}
function receipt(hash: Hash, logs: readonly SourceLog[], status: 'success' | 'reverted' = 'success', index = 0): SourceReceipt {
  return { transactionHash: hash, transactionIndex: index, status, gasUsed: 1n, effectiveGasPrice: 1n, contractAddress: null, logs };
}
function block(transactions: readonly SourceTransaction[]): SourceBlock {
  return {
    number: 10,
    hash: h32(0xb10c),
    parentHash: h32(0xb10b),
    timestamp: 1_700_000_000,
    miner: addr(0xee),
    size: 1,
    gasLimit: 30_000_000n,
    gasUsed: 1n,
    baseFeePerGas: 1n,
    difficulty: 0n,
    totalDifficulty: 0n,
    nonce: hex('0x0000000000000000'),
    extraData: EMPTY_HEX,
    stateRoot: h32(1),
    uncles: [],
    transactions,
  } as SourceBlock;
}
function frame(to: Address, input: Hex, calls: readonly CallFrame[] = [], error: string | null = null): CallFrame {
  return { type: 'CALL', from: BUNDLER, to, value: 0n, gas: 1n, gasUsed: 1n, input, output: EMPTY_HEX, error, revertReason: null, calls };
}

t.test('v0.7 handleOps sent to the EntryPoint: fields, logs and sponsors', async (t) => {
  const H = h32(0x100);
  const hashA = h32(0xaaa);
  const hashB = h32(0xbbb);
  const initCode = `${FACTORY}5fbfb9cf` as Hex;
  const pmData = `${PAYMASTER}${'0'.repeat(31)}7${'0'.repeat(31)}3` as Hex; // verification 7, postOp 3
  const ops = [op07(SENDER_A, 0n, { initCode }), op07(SENDER_B, 5n, { paymasterAndData: pmData })];
  const input = hex(encodeFunctionData({ abi: ENTRY_POINT_V07_ABI, functionName: 'handleOps', args: [ops, BENEFICIARY] }));
  logIndex = 3;
  const logs = [
    deposited(ENTRY_POINT_V07, H, SENDER_A), // prefund of A (before the marker)
    beforeExecution(ENTRY_POINT_V07, H),
    accountDeployed(ENTRY_POINT_V07, H, hashA, SENDER_A),
    userLog(TOKEN, H),
    userLog(TOKEN, H),
    opEvent(ENTRY_POINT_V07, H, { hash: hashA, sender: SENDER_A, nonce: 0n, success: true, cost: 1000n, used: 300n }),
    userLog(PAYMASTER, H),
    revertReason(ENTRY_POINT_V07, H, hashB, SENDER_B, 5n, hex('0x08c379a0')),
    userLog(PAYMASTER, H), // postOp log: trimmed from the end
    opEvent(ENTRY_POINT_V07, H, { hash: hashB, sender: SENDER_B, paymaster: PAYMASTER, nonce: 5n, success: false, cost: 500n, used: 0n }),
  ];
  const out = userOperationsOf({ block: block([tx(H, ENTRY_POINT_V07, input)]), receipts: [receipt(H, logs)], traces: null }, DEFAULT_ENTRY_POINTS);
  t.equal(out.length, 2);
  const [a, b] = out;
  if (a === undefined || b === undefined) return;
  t.match(a, {
    hash: hashA,
    sender: SENDER_A,
    nonce: 0n,
    entryPoint: ENTRY_POINT_V07,
    entryPointVersion: 'v0.7',
    bundler: BENEFICIARY,
    bundleIndex: 0,
    index: 0,
    factory: FACTORY,
    paymaster: null,
    status: true,
    revertReason: null,
    verificationGasLimit: 100_000n,
    callGasLimit: 50_000n,
    maxPriorityFeePerGas: 2n,
    maxFeePerGas: 30n,
    gas: 171_000n,
    gasUsed: 300n,
    gasPrice: 3n,
    actualGasCost: 1000n,
    sponsorType: 'wallet_deposit',
    userLogsStartIndex: 6,
    userLogsCount: 2,
    transactionHash: H,
    blockNumber: 10,
    timestamp: 1_700_000_000,
    aggregator: null,
    initCode,
  });
  t.match(b, {
    hash: hashB,
    index: 1,
    paymaster: PAYMASTER,
    factory: null,
    status: false,
    revertReason: '0x08c379a0',
    gas: 171_010n,
    gasPrice: 0n,
    sponsorType: 'paymaster_sponsor',
    // every log of its slice is the EntryPoint's or the paymaster's: none of its own
    userLogsStartIndex: 9,
    userLogsCount: 0,
  });
});

t.test('v0.6 handleAggregatedOps inside another call, two bundles in one transaction', async (t) => {
  const H = h32(0x200);
  const agg = addr(0xa66);
  const first = hex(
    encodeFunctionData({
      abi: ENTRY_POINT_V06_ABI,
      functionName: 'handleAggregatedOps',
      args: [[{ userOps: [op06(SENDER_A, 1n), op06(SENDER_B, 2n, PAYMASTER)], aggregator: agg, signature: '0xfeed' }], BENEFICIARY],
    }),
  );
  const second = hex(encodeFunctionData({ abi: ENTRY_POINT_V06_ABI, functionName: 'handleOps', args: [[op06(SENDER_A, 3n)], BUNDLER] }));
  const reverted = hex(encodeFunctionData({ abi: ENTRY_POINT_V06_ABI, functionName: 'handleOps', args: [[op06(SENDER_A, 9n)], BUNDLER] }));
  const router = addr(0x1234);
  const trace: TransactionTrace = {
    transactionHash: H,
    frame: frame(router, EMPTY_HEX, [frame(ENTRY_POINT_V06, first), frame(ENTRY_POINT_V06, reverted, [], 'execution reverted'), frame(ENTRY_POINT_V06, second)]),
  };
  logIndex = 0;
  const logs = [
    beforeExecution(ENTRY_POINT_V06, H),
    opEvent(ENTRY_POINT_V06, H, { hash: h32(1), sender: SENDER_A, nonce: 1n, success: true, cost: 10n, used: 5n }),
    deposited(ENTRY_POINT_V06, H, PAYMASTER),
    opEvent(ENTRY_POINT_V06, H, { hash: h32(2), sender: SENDER_B, paymaster: PAYMASTER, nonce: 2n, success: true, cost: 10n, used: 5n }),
    beforeExecution(ENTRY_POINT_V06, H),
    userLog(TOKEN, H),
    opEvent(ENTRY_POINT_V06, H, { hash: h32(3), sender: SENDER_A, nonce: 3n, success: true, cost: 10n, used: 5n }),
  ];
  const out = userOperationsOf({ block: block([tx(H, router, EMPTY_HEX)]), receipts: [receipt(H, logs)], traces: [trace] }, DEFAULT_ENTRY_POINTS);
  t.same(
    out.map((o) => [o.hash, o.bundleIndex, o.index, o.bundler, o.aggregator, o.aggregatorSignature, o.entryPointVersion, o.gas, o.sponsorType]),
    [
      [h32(1), 0, 0, BENEFICIARY, agg, '0xfeed', 'v0.6', 35n, 'wallet_balance'],
      [h32(2), 0, 1, BENEFICIARY, agg, '0xfeed', 'v0.6', 75n, 'paymaster_hybrid'],
      [h32(3), 1, 0, BUNDLER, null, null, 'v0.6', 35n, 'wallet_balance'],
    ],
  );
  t.same(out.map((o) => [o.userLogsStartIndex, o.userLogsCount]), [[1, 0], [2, 0], [5, 1]]);
  // without the trace the bundles cannot be told: nothing
  t.same(userOperationsOf({ block: block([tx(H, router, EMPTY_HEX)]), receipts: [receipt(H, logs)], traces: null }, DEFAULT_ENTRY_POINTS), []);
});

t.test('what yields nothing', async (t) => {
  const H = h32(0x300);
  const input = hex(encodeFunctionData({ abi: ENTRY_POINT_V07_ABI, functionName: 'handleOps', args: [[op07(SENDER_A, 0n)], BENEFICIARY] }));
  logIndex = 0;
  const ok = [beforeExecution(ENTRY_POINT_V07, H), opEvent(ENTRY_POINT_V07, H, { hash: h32(9), sender: SENDER_A, nonce: 0n, success: true, cost: 1n, used: 1n })];
  const run = (r: SourceReceipt, to: Address = ENTRY_POINT_V07) => userOperationsOf({ block: block([tx(H, to, input)]), receipts: [r], traces: null }, DEFAULT_ENTRY_POINTS);
  t.equal(run(receipt(H, ok)).length, 1, 'the control');
  t.same(run(receipt(H, [], 'reverted')), [], 'a bundle reverted as a whole');
  t.same(run(receipt(H, ok.slice(0, 1))), [], 'an operation without its event drops the bundle');
  const wrongNonce = [ok[0] as SourceLog, opEvent(ENTRY_POINT_V07, H, { hash: h32(9), sender: SENDER_A, nonce: 1n, success: true, cost: 1n, used: 1n })];
  t.same(run(receipt(H, wrongNonce)), [], 'an event of another nonce is not the operation’s');
  t.same(run(receipt(H, ok), addr(0x5555)), [], 'sent through another contract, untraced');
  t.same(userOperationsOf({ block: block([tx(H, ENTRY_POINT_V07, input)]), receipts: [receipt(H, ok)], traces: null }, new Map()), [], 'no EntryPoints');
});

t.test('a configured EntryPoint, the EIP-7702 marker and a v0.8 label', async (t) => {
  const H = h32(0x400);
  const mine = addr(0xe9e9);
  const initCode = '0x7702000000000000000000000000000000000000' as Hex;
  const input = hex(encodeFunctionData({ abi: ENTRY_POINT_V07_ABI, functionName: 'handleOps', args: [[op07(SENDER_A, 0n, { initCode })], BENEFICIARY] }));
  logIndex = 0;
  const logs = [beforeExecution(mine, H), opEvent(mine, H, { hash: h32(8), sender: SENDER_A, nonce: 0n, success: true, cost: 1n, used: 1n })];
  const input2 = { block: block([tx(H, mine, input)]), receipts: [receipt(H, logs)], traces: null };
  t.same(userOperationsOf(input2, DEFAULT_ENTRY_POINTS), [], 'unknown to the defaults');
  const [op] = userOperationsOf(input2, entryPointsWith({ [mine.toUpperCase().replace('0X', '0x')]: 'v0.8' }));
  t.match(op, { entryPoint: mine, entryPointVersion: 'v0.8', factory: null, initCode });
});

t.test("user log bounds as Blockscout's own test vector", async (t) => {
  const ep = addr(1);
  const pm = addr(2);
  const other = addr(3);
  const logs = [ep, ep, other, ep, pm, ep].map((a, i) => ({ address: a, topics: [], data: '0x' as Hex, logIndex: i + 10, transactionHash: h32(1), transactionIndex: 0 }));
  t.same(userLogBounds(logs, ep, pm), { start: 12, count: 1 });
  t.same(userLogBounds([], ep, pm), { start: 0, count: 0 });
  t.same(userLogBounds(logs.slice(0, 2), ep, pm), { start: 10, count: 0 });
  t.same(userLogBounds(logs.slice(2), ep, pm), { start: 12, count: 1 });
  t.same(userLogBounds(logs.slice(0, 3), ep, pm), { start: 12, count: 1 });
});
