/**
 * Call frames and storage writes rebuilt from struct logs (adapters/rpc/structlog.ts), checked
 * against anvil's callTracer and prestateTracer diffMode. The demo scenario runs on one anvil and
 * on one Hardhat 2 node (`hardhat node`, hardfork Osaka: anvil 1.7's default "Bpo1" runs Osaka's
 * EVM), and then a few hand-assembled contracts run there too (every call type, every way a
 * frame fails, precompiles, calls without code, value it cannot pay, failed and nested
 * creations, SELFDESTRUCT, writes of reverted frames): the same accounts and contracts at the
 * same addresses, the same calls. Transactions are paired by position; for each pair anvil's
 * frame tree and ours from Hardhat's struct logs must agree in every field, except:
 * - gas, when the two nodes estimated a different gas limit for the transaction (the scenario
 *   lets viem estimate most of them; Hardhat's estimates are a little higher in 9 of 33): each
 *   frame's gas follows from the limit, and only the top frame's (limit less intrinsic gas) is
 *   compared then; gasUsed is compared everywhere;
 * - error words anvil takes from revm where geth has its own: "StateChangeDuringStaticCall"
 *   (geth: "write protection"), "StackUnderflow" ("stack underflow (0 <=> 1)"), "invalid opcode"
 *   for an undefined opcode ("invalid opcode: opcode 0xc not defined"): we give geth's;
 * - a SELFDESTRUCT's value (the balance it moved, not in the steps): null.
 * Storage writes must be anvil's post values, zero for slots anvil has only in pre, and for any
 * other slot written the value it had before (eth_getStorageAt at the block before).
 * Also: Hardhat 3 starts and runs the scenario, and its struct logs (0x-prefixed, memory only on
 * request) rebuild to the same frames; answers that are not traces throw RpcShapeError; a trace
 * past the byte limit throws TraceTooLargeError; node errors and a timeout classify as the rest.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import type { Test } from 'tap';
import { createPublicClient, defineChain, getContractAddress, http, keccak256, parseGwei } from 'viem';
import type { Address as ViemAddress, Hex } from 'viem';
import { startAnvil } from '../../../demo/anvil.ts';
import { devAccount, runScenario } from '../../../demo/scenario.ts';
import type { ScenarioFacts } from '../../../demo/scenario.ts';
import { classify, FinalRpcError, RetryableRpcError } from '../../../adapters/rpc/errors.ts';
import { parseFrame, parsePrestateDiff, parseReceipt, parseTransaction, RpcShapeError } from '../../../adapters/rpc/parse.ts';
import { framesFromStructLogs, storageWritesFromStructLogs } from '../../../adapters/rpc/structlog.ts';
import { fetchStructLogs, TraceTooLargeError } from '../../../adapters/rpc/structlogFetch.ts';
import type { CallFrame, SourceReceipt, SourceTransaction } from '../../../lib/chain-source.ts';
import type { Address, Hash } from '../../../lib/domain/records.ts';
import { address, EMPTY_HEX, hash } from '../../../lib/domain/hex.ts';
import { startHardhatNode } from '../../support/hardhatNode.ts';
import type { HardhatNode } from '../../support/hardhatNode.ts';

async function rpc(url: string, method: string, params: readonly unknown[]): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await res.json()) as { result?: unknown; error?: { message?: string } };
  if (body.error !== undefined) throw new Error(`${method}: ${body.error.message ?? JSON.stringify(body.error)}`);
  return body.result;
}

// ---- answers that are not traces ----

const TX: SourceTransaction = {
  hash: hash(`0x${'aa'.repeat(32)}`), blockNumber: 1, blockHash: hash(`0x${'bb'.repeat(32)}`), index: 0,
  from: address('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'), to: address('0x5fbdb2315678afecb367f032d93f642f64180aa3'),
  value: 0n, gas: 100_000n, gasPrice: null, maxFeePerGas: null, maxPriorityFeePerGas: null, nonce: 0, type: 2, input: EMPTY_HEX,
};
const RECEIPT: SourceReceipt = { transactionHash: TX.hash, transactionIndex: 0, status: 'success', gasUsed: 30_000n, effectiveGasPrice: null, contractAddress: null, logs: [] };
const word = (n: bigint): string => n.toString(16).padStart(64, '0');
const step = (op: string, depth: number, gas: number, gasCost: number, stack: readonly bigint[] = [], memory: readonly string[] = []): Record<string, unknown> =>
  ({ pc: 0, op, gas, gasCost, depth, stack: stack.map(word), memory });
/** CALL's stack, bottom first: retLength, retOffset, argsLength, argsOffset, value, address, gas */
const callStack = (to: bigint, value = 0n): bigint[] => [0n, 0n, 0n, 0n, value, to, 50_000n];

t.test('a hand-made trace: a call that writes storage and returns', async (t) => {
  const callee = 0x1234n;
  const logs = {
    failed: false, gas: 30_000, returnValue: '',
    structLogs: [
      step('CALL', 1, 79_000, 52_600, callStack(callee, 0n)),
      step('PUSH1', 2, 50_000, 3),
      step('SSTORE', 2, 49_997, 22_100, [7n, 1n]),
      step('RETURN', 2, 27_897, 0, [32n, 0n], [word(0x99n)]),
      step('STOP', 1, 79_000 - 52_600 + 27_897, 0, [1n]),
    ],
  };
  const frame = framesFromStructLogs(TX, RECEIPT, logs);
  t.equal(frame.gas, 79_000n, 'the top frame: the gas its code started with');
  t.equal(frame.calls.length, 1);
  const c = frame.calls[0] as CallFrame;
  t.same({ type: c.type, from: c.from, to: c.to, value: c.value, gas: c.gas, gasUsed: c.gasUsed, output: c.output, error: c.error },
    { type: 'CALL', from: TX.to, to: '0x0000000000000000000000000000000000001234', value: 0n, gas: 50_000n, gasUsed: 22_103n, output: `0x${word(0x99n)}`, error: null });
  const writes = storageWritesFromStructLogs(TX, logs);
  t.same([...writes.entries()].map(([a, s]) => [a, [...s.entries()]]), [['0x0000000000000000000000000000000000001234', [[`0x${word(1n)}`, `0x${word(7n)}`]]]]);
  const reverted = { ...logs, structLogs: logs.structLogs.map((s, i) => (i === 3 ? { ...s, op: 'REVERT' } : i === 4 ? { ...s, stack: [word(0n)] } : s)) };
  t.same(storageWritesFromStructLogs(TX, reverted), new Map(), 'a reverted frame writes nothing');
  t.equal(framesFromStructLogs(TX, RECEIPT, reverted).calls[0]?.error, 'execution reverted');
});

t.test('answers that are not whole traces throw RpcShapeError', async (t) => {
  const ok = step('CALL', 1, 79_000, 52_600, callStack(1n));
  const bad: Record<string, unknown> = {
    'null': null,
    'a number': 5,
    'an array': [],
    'no failed': { structLogs: [] },
    'structLogs not an array': { failed: false, structLogs: {} },
    'no structLogs': { failed: false },
    'a step not an object': { failed: false, structLogs: [7] },
    'a step without op': { failed: false, structLogs: [{ depth: 1, gas: 1, gasCost: 1 }] },
    'a step without depth': { failed: false, structLogs: [{ op: 'STOP', gas: 1, gasCost: 1 }] },
    'a step without gas': { failed: false, structLogs: [{ op: 'STOP', depth: 1, gasCost: 1 }] },
    'a step with gas not a number': { failed: false, structLogs: [{ op: 'STOP', depth: 1, gas: 'lots', gasCost: 1 }] },
    'a first step at depth 2': { failed: false, structLogs: [step('STOP', 2, 1, 0)] },
    'a depth jump without a call': { failed: false, structLogs: [step('PUSH1', 1, 10, 3), step('STOP', 2, 7, 0)] },
    'a depth jump of two at a call': { failed: false, structLogs: [ok, step('STOP', 3, 1, 0), step('STOP', 1, 1, 0, [1n])] },
    'a call step without stack': { failed: false, structLogs: [{ ...ok, stack: undefined }, step('STOP', 1, 1, 0, [1n])] },
    'a call step with a short stack': { failed: false, structLogs: [{ ...ok, stack: [word(1n)] }, step('STOP', 1, 1, 0, [1n])] },
    'a call step without memory': { failed: false, structLogs: [{ ...ok, stack: callStack(1n, 0n).map(word).map((w, i) => (i === 2 ? word(4n) : w)), memory: undefined }, step('STOP', 1, 1, 0, [1n])] },
    'a stack item not hex': { failed: false, structLogs: [{ ...ok, stack: ['zz', ...callStack(1n).slice(1).map(word)] }, step('STOP', 1, 1, 0, [1n])] },
    'a memory word of the wrong length': { failed: false, structLogs: [{ ...ok, stack: callStack(1n).map(word).map((w, i) => (i === 2 ? word(4n) : w)), memory: ['12'] }, step('STOP', 1, 1, 0, [1n])] },
    'a trace ending inside a call': { failed: false, structLogs: [ok, step('PUSH1', 2, 50_000, 3)] },
    'a caller that comes back without a result': { failed: false, structLogs: [ok, step('STOP', 2, 50_000, 0), step('STOP', 1, 1, 0)] },
    'a returnValue not hex': { failed: false, returnValue: 'nope', structLogs: [] },
  };
  for (const [what, result] of Object.entries(bad)) {
    // without `failed` (Ganache leaves it out) the frames take the receipt's status; the storage writes, which have no receipt, cannot
    if (what !== 'no failed') t.throws(() => framesFromStructLogs(TX, RECEIPT, result), RpcShapeError, `frames: ${what}`);
    t.throws(() => storageWritesFromStructLogs(TX, result), RpcShapeError, `storage: ${what}`);
  }
  t.equal(framesFromStructLogs(TX, RECEIPT, { structLogs: [] }).error, null, 'frames without `failed`: the receipt says it succeeded');
  t.equal(framesFromStructLogs(TX, { ...RECEIPT, status: 'reverted' }, { structLogs: [] }).error, 'out of gas', 'frames without `failed`: the receipt says it failed');
  t.throws(() => framesFromStructLogs(TX, { ...RECEIPT, status: null }, { structLogs: [] }), RpcShapeError, 'frames without `failed` nor a status: garbage');
  const ret = step('RETURN', 1, 1000, 0, [32n, 0n], [word(42n)]);
  t.equal(framesFromStructLogs(TX, RECEIPT, { failed: false, returnValue: '', structLogs: [ret] }).output, `0x${word(42n)}`, 'an empty returnValue (Ganache): the output read from memory at RETURN');
});

// ---- the nodes ----

const started = performance.now();
const [anvil, hardhat2, hardhat3] = await Promise.all([
  startAnvil().then((node) => ({ node, ms: Math.round(performance.now() - started) })),
  startHardhatNode(2),
  startHardhatNode(3),
]);
t.teardown(() => Promise.all([anvil.node.stop(), hardhat2?.stop(), hardhat3?.stop()]).then(() => undefined));
t.comment(`started: anvil ${anvil.ms} ms, hardhat 2 ${hardhat2?.startMs ?? '-'} ms, hardhat 3 ${hardhat3?.startMs ?? '-'} ms (from spawning)`);

interface Ran {
  readonly facts: ScenarioFacts;
  readonly extras: readonly Hash[];
  readonly scenarioMs: number;
}

async function runAll(url: string): Promise<Ran> {
  const at = performance.now();
  const facts = await runScenario(url);
  const scenarioMs = Math.round(performance.now() - at);
  return { facts, extras: await runExtras(url), scenarioMs };
}

// ---- hand-assembled contracts ----

const OPCODES: Readonly<Record<string, number>> = {
  STOP: 0x00, CODECOPY: 0x39, POP: 0x50, MSTORE: 0x52, SSTORE: 0x55, JUMP: 0x56, JUMPDEST: 0x5b, GAS: 0x5a,
  CREATE: 0xf0, CALL: 0xf1, CALLCODE: 0xf2, RETURN: 0xf3, DELEGATECALL: 0xf4, CREATE2: 0xf5, STATICCALL: 0xfa,
  REVERT: 0xfd, INVALID: 0xfe, SELFDESTRUCT: 0xff, UNDEFINED_0C: 0x0c,
};
type Item = string | bigint;
const byte = (n: number): string => n.toString(16).padStart(2, '0');

/** Opcode names and pushed values (PUSH0 for 0, else the shortest PUSHn) → code. */
function asm(items: readonly Item[]): Hex {
  let out = '';
  for (const it of items) {
    if (typeof it === 'string') {
      const op = OPCODES[it];
      if (op === undefined) throw new Error(`no opcode ${it}`);
      out += byte(op);
    } else if (it === 0n) {
      out += '5f';
    } else {
      const h = it.toString(16).padStart(it.toString(16).length + (it.toString(16).length % 2), '0');
      out += byte(0x5f + h.length / 2) + h;
    }
  }
  return `0x${out}`;
}

/** `runtime` (then `data`) deployed by an init code that copies it out. */
function deployment(runtime: Hex): Hex {
  const size = (runtime.length - 2) / 2;
  const push2 = (n: number): string => `61${n.toString(16).padStart(4, '0')}`;
  return `0x${push2(size)}${push2(13)}5f39${push2(size)}5ff3${runtime.slice(2)}`;
}

/** A call whose success flag is dropped. */
function call(kind: 'CALL' | 'CALLCODE' | 'DELEGATECALL' | 'STATICCALL', to: string, o: { gas?: bigint; value?: bigint; args?: readonly [bigint, bigint]; ret?: readonly [bigint, bigint] } = {}): Item[] {
  const [argsOffset, argsLength] = o.args ?? [0n, 0n];
  const [retOffset, retLength] = o.ret ?? [0n, 0n];
  const value = kind === 'CALL' || kind === 'CALLCODE' ? [o.value ?? 0n] : [];
  return [retLength, retOffset, argsLength, argsOffset, ...value, BigInt(to), o.gas ?? 'GAS', kind, 'POP'];
}

/** Code put in memory at `at` (32-byte words), for CREATE and CREATE2. */
function inMemory(code: Hex, at: bigint): { readonly items: Item[]; readonly offset: bigint; readonly length: bigint } {
  const body = code.slice(2);
  const padded = body.padEnd(Math.ceil(body.length / 64) * 64, '0');
  const items: Item[] = [];
  for (let k = 0; k < padded.length / 64; k++) items.push(BigInt(`0x${padded.slice(k * 64, k * 64 + 64)}`), at + 32n * BigInt(k), 'MSTORE');
  return { items, offset: at, length: BigInt(body.length / 2) };
}

/** Error("nope") */
const ERROR_NOPE = `08c379a0${word(32n)}${word(4n)}${'6e6f7065'.padEnd(64, '0')}`;

/**
 * Contracts deployed by account 6 (unused by the scenario), then one transaction through all of
 * them and a few failing ones; every transaction with its gas and fees given, signed here, so
 * that each node gets the very same bytes.
 */
async function runExtras(url: string): Promise<Hash[]> {
  const account = devAccount(6);
  const chain = defineChain({ id: 31337, name: 'dev', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [url] } } });
  const reader = createPublicClient({ chain, transport: http(url, { retryCount: 0 }), pollingInterval: 50 });
  let nonce = await reader.getTransactionCount({ address: account.address });
  const hashes: Hash[] = [];
  const send = async (to: ViemAddress | null, data: Hex, gas: bigint, value = 0n, accessList: { address: ViemAddress; storageKeys: Hex[] }[] = []): Promise<string> => {
    if (account.signTransaction === undefined) throw new Error('a local account signs');
    const signed = await account.signTransaction({ chainId: 31337, type: 'eip1559', nonce, to, data, gas, value, maxFeePerGas: parseGwei('100'), maxPriorityFeePerGas: parseGwei('1'), accessList });
    const created = getContractAddress({ from: account.address, nonce: BigInt(nonce) });
    nonce++;
    const sent = keccak256(signed);
    // Hardhat mines a failing transaction and answers with an error all the same
    await reader.request({ method: 'eth_sendRawTransaction', params: [signed] }).catch(() => undefined);
    await reader.waitForTransactionReceipt({ hash: sent, pollingInterval: 50, timeout: 30_000 });
    hashes.push(hash(sent));
    return created;
  };
  const deploy = (runtime: Hex): Promise<string> => send(null, deployment(runtime), 1_000_000n);
  const storeRet = await deploy(asm([0x42n, 1n, 'SSTORE', 0x42n, 0n, 'MSTORE', 32n, 0n, 'RETURN']));
  const revertHead = (offset: number): Hex => asm([7n, 2n, 'SSTORE', 100n, BigInt(offset), 0n, 'CODECOPY', 100n, 0n, 'REVERT']);
  const head = revertHead(0);
  const revertStore = await deploy(`${revertHead((head.length - 2) / 2)}${ERROR_NOPE}`);
  const invalid = await deploy(asm(['INVALID']));
  const undefinedOp = await deploy(asm(['UNDEFINED_0C']));
  const loop = await deploy(asm(['JUMPDEST', 0n, 'JUMP']));
  const badJump = await deploy(asm([3n, 'JUMP']));
  const underflow = await deploy(asm(['POP']));
  const destruct = await deploy(asm([0xbeefn, 'SELFDESTRUCT']));
  const nestRevert = await deploy(asm([...call('CALL', storeRet), 0n, 0n, 'REVERT']));
  const callsOut = await deploy(asm([...call('CALL', storeRet), 3n, 4n, 'SSTORE', 'STOP']));
  const reverting = inMemory(asm([0n, 0n, 'REVERT']), 0x200n);
  const storing = inMemory(asm([9n, 3n, 'SSTORE', 1n, 0n, 'RETURN']), 0x300n);
  const constructing = inMemory(asm([...call('CALL', storeRet), 1n, 1n, 'SSTORE', 0n, 0n, 'RETURN']), 0x400n);
  const driver = await deploy(asm([
    0x1122334455667788n, 0n, 'MSTORE',
    ...call('CALL', storeRet, { args: [0n, 4n], ret: [0x40n, 32n] }),
    ...call('DELEGATECALL', storeRet, { args: [0n, 4n] }),
    ...call('STATICCALL', storeRet, { gas: 50_000n }),
    ...call('CALLCODE', storeRet, { value: 1n }),
    ...call('CALL', revertStore, { args: [0n, 36n] }),
    ...call('CALL', invalid, { gas: 10_000n }),
    ...call('CALL', undefinedOp, { gas: 10_000n }),
    ...call('CALL', loop, { gas: 10_000n }),
    ...call('CALL', badJump, { gas: 10_000n }),
    ...call('CALL', underflow, { gas: 10_000n }),
    ...call('STATICCALL', '0x02', { args: [0n, 32n], ret: [0x80n, 32n] }),
    ...call('STATICCALL', '0x04', { args: [0n, 32n], ret: [0xa0n, 32n] }),
    ...call('CALL', devAccount(7).address, { gas: 0n, value: 1n }),
    ...call('CALL', '0xdeadbeef', { gas: 0n, value: 1n }),
    ...call('CALL', storeRet, { value: 10n ** 30n }),
    ...reverting.items, reverting.length, reverting.offset, 0n, 'CREATE', 'POP',
    ...storing.items, 0x5cn, storing.length, storing.offset, 0n, 'CREATE2', 'POP',
    ...call('CALL', nestRevert),
    ...call('CALL', destruct, { value: 5n }),
    0x55n, 5n, 'SSTORE',
    ...call('DELEGATECALL', callsOut),
    ...constructing.items, constructing.length, constructing.offset, 0n, 'CREATE', 'POP',
    'STOP',
  ]));
  await send(driver as ViemAddress, '0x', 3_000_000n, 100n);
  await send(loop as ViemAddress, '0x', 60_000n);
  await send(invalid as ViemAddress, '0x', 60_000n);
  await send(null, asm([0n, 0n, 'REVERT']), 100_000n);
  await send('0x0000000000000000000000000000000000000004', '0x1234', 50_000n);
  await send(nestRevert as ViemAddress, '0x', 200_000n);
  await send(devAccount(7).address, '0x', 50_000n, 7n, [{ address: storeRet as ViemAddress, storageKeys: [`0x${word(1n)}`] }]);
  return hashes;
}

// ---- comparing with anvil ----

/** anvil's words (revm's) for failures geth names otherwise: we give geth's. */
const ANVIL_WORDS: ReadonlyArray<readonly [string, RegExp]> = [
  ['StateChangeDuringStaticCall', /^write protection$/],
  ['StackUnderflow', /^stack underflow \(\d+ <=> \d+\)$/],
  ['invalid opcode', /^invalid opcode(: opcode 0x[0-9a-f]+ not defined)?$/],
];
const sameError = (anvil: string | null, ours: string | null): boolean =>
  anvil === ours || ANVIL_WORDS.some(([a, o]) => a === anvil && ours !== null && o.test(ours));

/** Where the two trees differ (the known exceptions aside). */
function differences(anvil: CallFrame, ours: CallFrame, path: string, gasToo: boolean): string[] {
  const out: string[] = [];
  const fields = ['type', 'from', 'to', 'input', 'output', 'revertReason', 'gasUsed', ...(gasToo ? (['gas'] as const) : [])] as const;
  for (const k of fields) if (anvil[k] !== ours[k]) out.push(`${path}.${k}: anvil ${String(anvil[k]).slice(0, 90)}, ours ${String(ours[k]).slice(0, 90)}`);
  if (!sameError(anvil.error, ours.error)) out.push(`${path}.error: anvil ${anvil.error}, ours ${ours.error}`);
  if (anvil.value !== ours.value && !(anvil.type === 'SELFDESTRUCT' && ours.value === null)) out.push(`${path}.value: anvil ${anvil.value}, ours ${ours.value}`);
  if (anvil.calls.length !== ours.calls.length) return [...out, `${path}.calls: anvil ${anvil.calls.map((c) => c.type).join(',')}, ours ${ours.calls.map((c) => c.type).join(',')}`];
  anvil.calls.forEach((c, i) => out.push(...differences(c, ours.calls[i] as CallFrame, `${path}.calls[${i}]`, gasToo)));
  return out;
}

const count = (f: CallFrame): number => 1 + f.calls.reduce((n, c) => n + count(c), 0);

interface Side {
  readonly tx: SourceTransaction;
  readonly receipt: SourceReceipt;
}

async function sideOf(url: string, hash: Hash): Promise<Side> {
  const [tx, receipt] = await Promise.all([rpc(url, 'eth_getTransactionByHash', [hash]), rpc(url, 'eth_getTransactionReceipt', [hash])]);
  return { tx: parseTransaction(tx), receipt: parseReceipt(receipt) };
}

/** Storage writes against anvil's diff: its post values, zero where it has only pre, else the value before. */
async function storageDifferences(url: string, side: Side, ours: Map<Address, Map<Hash, Hash>>, diffResult: unknown, what: string): Promise<string[]> {
  const diff = parsePrestateDiff(side.tx.hash, diffResult);
  const zero = `0x${word(0n)}`;
  const expected = new Map<string, string>();
  for (const [address, state] of diff.pre) for (const slot of state.storage?.keys() ?? []) expected.set(`${address} ${slot}`, zero);
  for (const [address, state] of diff.post) for (const [slot, value] of state.storage ?? []) expected.set(`${address} ${slot}`, value);
  const out: string[] = [];
  const seen = new Set<string>();
  for (const [address, slots] of ours) {
    for (const [slot, value] of slots) {
      const key = `${address} ${slot}`;
      seen.add(key);
      const want = expected.get(key) ?? (await rpc(url, 'eth_getStorageAt', [address, slot, `0x${(side.tx.blockNumber - 1).toString(16)}`]));
      if (want !== value) out.push(`${what}: ${key} = ${value}, expected ${String(want)}${expected.has(key) ? '' : ' (unchanged)'}`);
    }
  }
  for (const key of expected.keys()) if (!seen.has(key)) out.push(`${what}: ${key} missing (anvil: ${expected.get(key) ?? ''})`);
  return out;
}

const ranStarted = performance.now();
const [onAnvil, onHardhat2, onHardhat3] = await Promise.all([
  runAll(anvil.node.url),
  hardhat2 === null ? null : runAll(hardhat2.url),
  hardhat3 === null ? null : runAll(hardhat3.url),
]);
t.comment(`scenario: anvil ${onAnvil.scenarioMs} ms, hardhat 2 ${onHardhat2?.scenarioMs ?? '-'} ms, hardhat 3 ${onHardhat3?.scenarioMs ?? '-'} ms (the three side by side; everything ${Math.round(performance.now() - ranStarted)} ms)`);

const anvilHashes = [...onAnvil.facts.allTxs, ...onAnvil.extras].map(hash);

/** Every transaction of the node rebuilt from its struct logs and compared with anvil's. */
async function compareWith(t: Test, node: HardhatNode, ran: Ran): Promise<void> {
  t.same(ran.facts.contracts, onAnvil.facts.contracts, 'the same contracts at the same addresses');
  t.same(ran.facts.accounts, onAnvil.facts.accounts);
  const hashes = [...ran.facts.allTxs, ...ran.extras].map(hash);
  t.equal(hashes.length, anvilHashes.length, 'as many transactions');
  let largest = 0;
  let frames = 0;
  const limits: string[] = [];
  for (const [i, hash] of hashes.entries()) {
    const anvilHash = anvilHashes[i] as Hash;
    const [ours, theirs, anvilCall, anvilDiff] = await Promise.all([
      sideOf(node.url, hash), sideOf(anvil.node.url, anvilHash),
      rpc(anvil.node.url, 'debug_traceTransaction', [anvilHash, { tracer: 'callTracer' }]),
      rpc(anvil.node.url, 'debug_traceTransaction', [anvilHash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]),
    ]);
    const logs = await fetchStructLogs(node.url, hash, { maxBytes: 64 * 1024 * 1024, timeoutMs: 60_000 });
    largest = Math.max(largest, Buffer.byteLength(JSON.stringify(logs)));
    const what = `#${i} ${i < ran.facts.allTxs.length ? 'scenario' : 'extra'} ${hash.slice(0, 10)}`;
    const sameLimit = ours.tx.gas === theirs.tx.gas;
    if (!sameLimit) limits.push(`#${i} ${theirs.tx.gas}/${ours.tx.gas}`);
    const anvilFrame = parseFrame(anvilCall);
    const frame = framesFromStructLogs(ours.tx, ours.receipt, logs);
    frames += count(frame);
    t.same(differences(anvilFrame, frame, what, sameLimit), [], `${what}: frames (${count(frame)})${sameLimit ? '' : ', gas apart'}`);
    if (!sameLimit) t.equal((frame.gas ?? 0n) - ours.tx.gas, (anvilFrame.gas ?? 0n) - theirs.tx.gas, `${what}: the top frame's gas, less the limit`);
    t.same(await storageDifferences(node.url, ours, storageWritesFromStructLogs(ours.tx, logs), anvilDiff, what), [], `${what}: storage writes`);
  }
  t.comment(`hardhat ${node.version}: ${hashes.length} transactions, ${frames} frames; the largest struct-log answer ${largest} bytes (as parsed and put back in JSON); gas limits estimated apart (anvil/hardhat): ${limits.join(', ')}`);
}

t.test('Hardhat 2 struct logs rebuild into anvil callTracer frames', { skip: hardhat2 === null || onHardhat2 === null ? 'no hardhat 2 node' : false }, async (t) => {
  if (hardhat2 === null || onHardhat2 === null) return;
  await compareWith(t, hardhat2, onHardhat2);
});

t.test('Hardhat 3 starts, runs the scenario, and its struct logs rebuild alike', { skip: hardhat3 === null || onHardhat3 === null ? 'no hardhat 3 node' : false }, async (t) => {
  if (hardhat3 === null || onHardhat3 === null) return;
  t.equal(onHardhat3.facts.allTxs.length, onAnvil.facts.allTxs.length, 'the whole scenario ran');
  await compareWith(t, hardhat3, onHardhat3);
});

const limited = hardhat2 !== null && onHardhat2 !== null ? { node: hardhat2, ran: onHardhat2 } : hardhat3 !== null && onHardhat3 !== null ? { node: hardhat3, ran: onHardhat3 } : null;
t.test('fetchStructLogs: the size limit, node errors, a timeout', { skip: limited === null ? 'no hardhat node' : false }, async (t) => {
  if (limited === null) return;
  const { node, ran } = limited;
  const txHash = hash(ran.facts.txs.factoryCreate2);
  const err = await fetchStructLogs(node.url, txHash, { maxBytes: 100_000, timeoutMs: 60_000 }).then(() => null, (e: unknown) => e);
  t.type(err, TraceTooLargeError, 'past the limit');
  t.type(err, FinalRpcError, 'final: a retry would read the same');
  t.equal(classify(err), err, 'classify keeps it');
  t.match((err as Error).message, new RegExp(`${txHash}.*100000 bytes`), 'says the transaction and the limit');
  const unknown = await fetchStructLogs(node.url, hash(`0x${'12'.repeat(32)}`), { maxBytes: 1_000_000, timeoutMs: 60_000 }).then(() => null, (e: unknown) => e);
  const failure = classify(unknown);
  t.type(failure, FinalRpcError, 'an unknown transaction: the node said so');
  t.equal((failure as FinalRpcError).code, -32000, "the node's code");
  t.match(failure.message, /Unable to find a block containing transaction/, "the node's words");
  // a node that never answers
  const silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => { silent.closeAllConnections(); silent.close(() => resolve()); }));
  const port = (silent.address() as AddressInfo).port;
  const timedOut = await fetchStructLogs(`http://127.0.0.1:${port}`, txHash, { maxBytes: 1000, timeoutMs: 300 }).then(() => null, (e: unknown) => e);
  t.type(classify(timedOut), RetryableRpcError, 'a timeout is retried');
  const stopped = new AbortController();
  stopped.abort(new Error('stop'));
  const aborted = await fetchStructLogs(`http://127.0.0.1:${port}`, txHash, { maxBytes: 1000, timeoutMs: 60_000, signal: stopped.signal }).then(() => null, (e: unknown) => e);
  t.match(aborted, { message: 'stop' }, "an abort rejects with the signal's reason");
});
