/**
 * The parity rung's converters (adapters/rpc/parity.ts) against anvil's own tracers on the same
 * blocks: the demo scenario and the cases of parity-cases.ts on one anvil, then every block with
 * transactions read four ways — debug_traceBlockByNumber with callTracer and with prestateTracer
 * diffMode (parse.ts), trace_block and trace_replayBlockTransactions (parity.ts). The frames must
 * be equal field for field; the diffs must give the indexer the same facts (coin changes, proxy
 * changes, end-of-block coin balances) and agree wherever Parity gives a value. Then answers that
 * are not whole traces, which must throw.
 */
import t from 'tap';
import type { Address, CoinBalanceRecord, Hash, Hex } from '../../../lib/domain/records.ts';
import { hex } from '../../../lib/domain/hex.ts';
import type { AccountState, CallFrame, PrestateDiff } from '../../../lib/chain-source.ts';
import { parseCallTrace, parsePrestateDiff, traceEntries } from '../../../adapters/rpc/parse.ts';
import { parityCallTraces, parityReplay, parityStateDiff } from '../../../adapters/rpc/parity.ts';
import { callTracerError, revertReason } from '../../../adapters/rpc/parity-errors.ts';
import { coinBalancesFromDiffs, coinChanges } from '../../../lib/ingest/state.ts';
import { detectProxies } from '../../../lib/proxy/detect.ts';
import { startAnvil } from '../../../demo/anvil.ts';
import { runScenario } from '../../../demo/scenario.ts';
import { rpc, runParityCases } from './parity-cases.ts';

const toHex = (n: number): string => `0x${n.toString(16)}`;

function walk(frame: CallFrame, f: (frame: CallFrame) => void): void {
  f(frame);
  for (const c of frame.calls) walk(c, f);
}

const isPrecompile = (a: Address | null): boolean => a !== null && BigInt(a) > 0n && BigInt(a) <= 0x100n;

/** The frame without its calls to precompiles (trace_replayBlockTransactions leaves them out on anvil). */
const withoutPrecompileCalls = (frame: CallFrame): CallFrame => ({
  ...frame,
  calls: frame.calls.filter((c) => !(c.type.endsWith('CALL') && isPrecompile(c.to))).map(withoutPrecompileCalls),
});

/** anvil calls an undefined opcode "invalid opcode", INVALID (0xfe) "invalid opcode: INVALID"; Parity says "Bad instruction" of both. */
const withParityOpcodeError = (frame: CallFrame): CallFrame => ({
  ...frame,
  error: frame.error === 'invalid opcode' ? 'invalid opcode: INVALID' : frame.error,
  calls: frame.calls.map(withParityOpcodeError),
});

type Plain = Record<string, { balance?: bigint; nonce?: number; code?: Hex; storage?: Record<string, string> }>;

/** A diff side as a plain object in address order (Maps compared by content). */
function plain(side: ReadonlyMap<Address, AccountState>): Plain {
  const out: Plain = {};
  for (const [address, s] of [...side].sort(([a], [b]) => (a < b ? -1 : 1))) {
    out[address] = {
      ...(s.balance === undefined ? {} : { balance: s.balance }),
      ...(s.nonce === undefined ? {} : { nonce: s.nonce }),
      ...(s.code === undefined ? {} : { code: s.code }),
      ...(s.storage === undefined ? {} : { storage: Object.fromEntries([...s.storage].sort(([a], [b]) => (a < b ? -1 : 1))) }),
    };
  }
  return out;
}

/** diffMode's `pre` as far as Parity tells it: the balance, nonce and code of an account only where the transaction changed them. */
function knownPre(diff: PrestateDiff): Map<Address, AccountState> {
  const out = new Map<Address, AccountState>();
  for (const [address, pre] of diff.pre) {
    const post = diff.post.get(address);
    out.set(address, {
      ...(post?.balance === undefined || pre.balance === undefined ? {} : { balance: pre.balance }),
      ...(post?.nonce === undefined || pre.nonce === undefined ? {} : { nonce: pre.nonce }),
      ...(post?.code === undefined || pre.code === undefined ? {} : { code: pre.code }),
      ...(pre.storage === undefined ? {} : { storage: pre.storage }),
    });
  }
  return out;
}

/** A block trace's results by transaction (a transaction the tracer failed on fails the test). */
function results(answer: unknown, hashes: readonly Hash[]): [Hash, unknown][] {
  return traceEntries(answer, hashes, 'debug_traceBlockByNumber').map((e) => {
    if (e.error !== undefined) throw new Error(`${e.transactionHash}: ${e.error}`);
    return [e.transactionHash, e.result];
  });
}

interface Receipt {
  readonly transactionHash: Hash;
  readonly gasUsed: string;
  readonly cumulativeGasUsed: string;
}

t.test('trace_block and trace_replayBlockTransactions, converted, agree with callTracer and prestateTracer', async (t) => {
  const anvil = await startAnvil();
  t.teardown(() => anvil.stop());
  await runScenario(anvil.url);
  const cases = await runParityCases(anvil.url);
  const call = rpc(anvil.url);
  const head = Number(BigInt((await call('eth_blockNumber', [])) as string));

  const errors = new Set<string>();
  const types = new Set<string>();
  let precompileCalls = 0;
  let undefinedOpcodes = 0;
  let transactions = 0;
  let proxyRecords = 0;
  const invented: CoinBalanceRecord[] = [];
  for (let n = 1; n <= head; n++) {
    const block = toHex(n);
    const receipts = (await call('eth_getBlockReceipts', [block])) as Receipt[];
    if (receipts.length === 0) continue;
    const hashes = receipts.map((r) => r.transactionHash.toLowerCase() as Hash);
    transactions += hashes.length;
    const gasUsed = new Map(receipts.map((r) => [r.transactionHash.toLowerCase() as Hash, BigInt(r.gasUsed)]));
    const cumulative = new Map(receipts.map((r) => [r.transactionHash.toLowerCase() as Hash, BigInt(r.cumulativeGasUsed)]));

    const frames = results(await call('debug_traceBlockByNumber', [block, { tracer: 'callTracer' }]), hashes).map(([h, r]) => parseCallTrace(h, r));
    const prestate = results(await call('debug_traceBlockByNumber', [block, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]), hashes).map(([h, r]) =>
      parsePrestateDiff(h, r),
    );
    const traced = parityCallTraces(hashes, await call('trace_block', [block]), gasUsed);
    const replayed = parityReplay(hashes, await call('trace_replayBlockTransactions', [block, ['trace', 'stateDiff']]), gasUsed);

    hashes.forEach((hash, i) => {
      const anvilFrame = (frames[i] as { frame: CallFrame }).frame;
      walk(anvilFrame, (f) => {
        types.add(f.type);
        if (f.error !== null) errors.add(f.error);
        if (f.error === 'invalid opcode') undefinedOpcodes++;
        if (f.type.endsWith('CALL') && isPrecompile(f.to)) precompileCalls++;
      });
      // anvil's callTracer puts the block's gas so far in the top frame (geth: the transaction's, its receipt's)
      t.ok(anvilFrame.gasUsed === gasUsed.get(hash) || anvilFrame.gasUsed === cumulative.get(hash), `${hash}: anvil's top gasUsed is the receipt's or the cumulative`);
      const expected = withParityOpcodeError({ ...anvilFrame, gasUsed: gasUsed.get(hash) ?? null });
      t.strictSame(traced[i], { transactionHash: hash, frame: expected }, `block ${n} ${hash}: trace_block = callTracer`);
      t.strictSame(replayed.traces[i], { transactionHash: hash, frame: withoutPrecompileCalls(expected) }, `block ${n} ${hash}: replay's trace = callTracer`);

      const geth = prestate[i] as PrestateDiff;
      const parity = replayed.diffs[i] as PrestateDiff;
      t.strictSame(coinChanges(parity), coinChanges(geth), `block ${n} ${hash}: coin changes`);
      t.strictSame(plain(parity.post), plain(geth.post), `block ${n} ${hash}: post`);
      t.strictSame(plain(parity.pre), plain(knownPre(geth)), `block ${n} ${hash}: pre, where Parity gives the values`);
    });

    const proxies = (diffs: readonly PrestateDiff[]) => detectProxies({ blockNumber: n, transactionHashes: hashes, diffs, contractCodes: [] });
    const gethProxies = proxies(prestate);
    proxyRecords += gethProxies.length;
    t.strictSame(proxies(replayed.diffs), gethProxies, `block ${n}: proxy changes`);

    // end-of-block coin balances: equal for every account whose balance Parity gives (it moved);
    // of the rest diffMode knows the balance and Parity does not
    const known = new Set<Address>();
    for (const d of replayed.diffs) for (const side of [d.pre, d.post]) for (const [a, s] of side) if (s.balance !== undefined) known.add(a);
    const gethBalances = coinBalancesFromDiffs(prestate, n);
    const parityBalances = coinBalancesFromDiffs(replayed.diffs, n);
    t.strictSame(
      parityBalances.filter((b) => known.has(b.address)),
      gethBalances.filter((b) => known.has(b.address)),
      `block ${n}: coin balances of the accounts whose balance moved`,
    );
    const gethValue = new Map(gethBalances.map((b) => [b.address, b.value]));
    invented.push(...parityBalances.filter((b) => !known.has(b.address) && gethValue.get(b.address) !== b.value));
  }

  t.strictSame(invented, [], 'no coin balance from the Parity diffs that diffMode contradicts (an account in `pre` without a balance, Parity\'s "=", gets no record)');
  t.ok(transactions > 70, `${transactions} transactions compared`);
  t.ok(proxyRecords >= 2, 'proxy changes seen (an EIP-1967 slot written and cleared)');
  t.equal(precompileCalls, 1, 'one call to a precompile (in trace_block, not in the replay)');
  t.equal(undefinedOpcodes, 1, 'one undefined opcode (anvil: "invalid opcode", Parity: "Bad instruction")');
  for (const e of ['execution reverted', 'out of gas', 'invalid opcode: INVALID', 'invalid jump destination', 'insufficient balance for transfer', 'StackUnderflow', 'StateChangeDuringStaticCall']) {
    t.ok(errors.has(e), `a frame failed with "${e}"`);
  }
  for (const type of ['CALL', 'STATICCALL', 'DELEGATECALL', 'CALLCODE', 'CREATE', 'CREATE2', 'SELFDESTRUCT']) t.ok(types.has(type), `a ${type} frame`);
  t.ok(Object.keys(cases.txs).length > 40, 'the cases sent');
});

const A = '0x00000000000000000000000000000000000000aa' as Address;
const B = '0x00000000000000000000000000000000000000bb' as Address;
const H1 = `0x${'11'.repeat(32)}` as Hash;
const H2 = `0x${'22'.repeat(32)}` as Hash;

/** A flat call trace of `hash` at `traceAddress`. */
const flat = (hash: Hash | null, traceAddress: number[], subtraces = 0): Record<string, unknown> => ({
  type: 'call',
  action: { callType: 'call', from: A, to: B, gas: '0x5208', input: '0x', value: '0x1' },
  result: { gasUsed: '0x0', output: '0x' },
  subtraces,
  traceAddress,
  transactionHash: hash,
});
const reward = { type: 'reward', action: { author: A, rewardType: 'block', value: '0x1' }, result: null, subtraces: 0, traceAddress: [], transactionHash: null };
const shapeError = (message: RegExp) => ({ name: 'RpcShapeError', message });

t.test('trace_block answers that are not whole traces throw RpcShapeError', async (t) => {
  t.throws(() => parityCallTraces([H1], { traces: [] }), shapeError(/expected an array/), 'not an array');
  t.throws(() => parityCallTraces([H1], [flat(H1, []), flat(H2, [])]), shapeError(/not one of the block's transactions/), 'a trace of a transaction not asked');
  t.throws(() => parityCallTraces([H1, H2], [flat(H1, [])]), shapeError(/no trace of 0x2222/), 'a transaction without a trace');
  t.throws(() => parityCallTraces([H1], [flat(H1, [], 1), flat(H1, [1, 0])]), shapeError(/\[1,0\] has no parent/), 'a traceAddress pointing nowhere');
  t.throws(() => parityCallTraces([H1], [flat(H1, [0]), flat(H1, [0, 0])]), shapeError(/no top-level trace/), 'no top frame');
  t.throws(() => parityCallTraces([H1], [flat(H1, [], 1), flat(H1, [0]), flat(H1, [0])]), shapeError(/two traces at traceAddress \[0\]/), 'two frames at one place');
  t.throws(() => parityCallTraces([H1], [flat(H1, [], 2), flat(H1, [0])]), shapeError(/has 2 subtraces, 1 given/), 'a child missing at the end');
  t.throws(() => parityCallTraces([H1], [flat(H1, [], 2), flat(H1, [1])]), shapeError(/no trace at traceAddress \[0\]/), 'a child missing before another');
  t.throws(() => parityCallTraces([H1], [{ ...flat(H1, []), type: 'vote' }]), shapeError(/type vote/), 'an unknown type');
  t.throws(() => parityCallTraces([H1], [{ ...flat(H1, []), result: null }]), shapeError(/neither result nor error/), 'a call with no outcome');
  t.throws(() => parityCallTraces([H1], [{ ...flat(H1, []), action: 'call' }]), shapeError(/action: expected an object/), 'an action that is not one');
  t.throws(() => parityCallTraces([H1], [{ ...flat(H1, []), traceAddress: '0' }]), shapeError(/traceAddress: expected an array/), 'a traceAddress that is not one');

  const [trace] = parityCallTraces([H1], [reward, flat(H1, [], 1), flat(null, []), flat(H1, [0])]);
  t.equal(trace?.frame.calls.length, 1, 'rewards and entries of no transaction are skipped');
  t.equal(trace?.frame.gasUsed, 0n, "without receipts the top frame keeps Parity's gasUsed");
});

t.test('trace_replayBlockTransactions and stateDiff answers that are not whole throw RpcShapeError', async (t) => {
  const entry = (hash: Hash | null) => ({ output: '0x', stateDiff: {}, trace: [flat(null, [])], transactionHash: hash, vmTrace: null });
  t.throws(() => parityReplay([H1], {}), shapeError(/expected an array/), 'not an array');
  t.throws(() => parityReplay([H1, H2], [entry(H1)]), shapeError(/1 entries for 2 transactions/), 'an entry missing');
  t.throws(() => parityReplay([H1], [entry(H2)]), shapeError(/expected 0x1111/), 'the entry of another transaction');
  t.throws(() => parityReplay([H1], [{ ...entry(H1), trace: [] }]), shapeError(/no trace of/), 'an empty trace');
  t.throws(() => parityReplay([H1], [{ ...entry(H1), stateDiff: null }]), shapeError(/expected an object/), 'no stateDiff');
  t.throws(() => parityStateDiff(H1, [A]), shapeError(/expected an object/), 'a stateDiff that is not an object');
  t.throws(() => parityStateDiff(H1, { [A]: { balance: { '?': '0x1' }, nonce: '=', code: '=', storage: {} } }), shapeError(/expected "="/), 'a field that is no delta');
  t.equal(parityReplay([H1], [entry(null)]).traces.length, 1, 'an entry without its hash is placed by its order');
});

t.test('stateDiff deltas diffMode never shows on anvil', async (t) => {
  const slot = (n: number): Hash => `0x${n.toString(16).padStart(64, '0')}` as Hash;
  const diff = parityStateDiff(H1, {
    // died (a self-destruct before Cancun): in pre only
    [A]: { balance: { '-': '0x5' }, nonce: { '-': '0x1' }, code: { '-': '0x6000' }, storage: { '0x1': { '-': '0x7' } } },
    // a slot born and one changed on a live account, in short hex; nothing else said
    [B]: { balance: '=', nonce: '=', code: '=', storage: { '0x2': { '+': '0x9' }, [slot(3)]: { '*': { from: '0x1', to: '0x0' } } } },
    // nothing changed: left out
    '0x00000000000000000000000000000000000000cc': { balance: '=', nonce: '=', code: '=', storage: {} },
  });
  t.strictSame(plain(diff.pre), {
    [A]: { balance: 5n, nonce: 1, code: '0x6000', storage: { [slot(1)]: slot(7) } },
    [B]: { storage: { [slot(3)]: slot(1) } },
  });
  t.strictSame(plain(diff.post), { [B]: { storage: { [slot(2)]: slot(9) } } }, 'a slot cleared is in pre only');
});

t.test("Parity's errors in callTracer's words, revert reasons as callTracer decodes them", async (t) => {
  const words: Record<string, string> = {
    Reverted: 'execution reverted',
    'Out of gas': 'out of gas',
    'Bad jump destination': 'invalid jump destination',
    'Bad instruction': 'invalid opcode: INVALID',
    'Stack underflow': 'stack underflow',
    'Insufficient balance for transfer': 'insufficient balance for transfer',
    'Built-in failed': 'precompiled failed',
    'Out of bounds': 'return data out of bounds',
    'Mutable Call In Static Context': 'write protection',
    'Out of stack': 'Out of stack',
    StackUnderflow: 'StackUnderflow',
    'execution reverted': 'execution reverted',
  };
  for (const [parity, geth] of Object.entries(words)) t.equal(callTracerError(parity), geth, `${parity} → ${geth}`);

  const error = (reason: string): Hex => `0x08c379a0${'20'.padStart(64, '0')}${reason.length.toString(16).padStart(64, '0')}${Buffer.from(reason).toString('hex').padEnd(64, '0')}` as Hex;
  const panic = (code: number): Hex => `0x4e487b71${code.toString(16).padStart(64, '0')}` as Hex;
  t.equal(revertReason(error('nope')), 'nope', 'Error(string)');
  t.equal(revertReason(error('')), null, 'an empty Error(string)');
  t.equal(revertReason(error('\0\0')), null, 'an Error(string) of NULs');
  t.equal(revertReason(panic(0x11)), 'arithmetic underflow or overflow', 'a panic');
  t.equal(revertReason(panic(0x99)), 'unknown panic code: 0x99', 'an unknown panic');
  t.equal(revertReason(hex('0xdeadbeef')), null, 'a custom error');
  t.equal(revertReason(hex('0x08c379a0ff')), null, 'an Error(string) that does not decode');
  t.equal(revertReason(null), null, 'no output');

  // a frame that never ran: gasUsed 0, no output (callTracer); one that halted: all its gas
  const failed = (word: string) => ({ ...flat(H1, []), error: word, result: null });
  t.equal(parityCallTraces([H1], [failed('Insufficient balance for transfer')])[0]?.frame.gasUsed, 0n, 'insufficient balance: no gas used');
  t.equal(parityCallTraces([H1], [failed('Out of gas')])[0]?.frame.gasUsed, 0x5208n, 'out of gas: all of it');
  t.equal(parityCallTraces([H1], [failed('Reverted')])[0]?.frame.gasUsed, null, 'reverted without a result: not known');
});
