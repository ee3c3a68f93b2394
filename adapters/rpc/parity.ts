/**
 * The "parity" rung's answers → the values the callTracer and prestateTracer rungs give: the flat
 * Parity-style traces of `trace_block` / `trace_replayBlockTransactions` (Erigon, Nethermind,
 * Reth, anvil, OpenEthereum) rebuilt into callTracer's frame tree, their state diffs into
 * diffMode's pre/post (parity-diff.ts). Pure; an answer that is not a whole trace of every
 * transaction asked throws RpcShapeError, never a partial tree.
 *
 * Frames come out as callTracer gives them: a failed creation names no contract; a frame that
 * halted (failed other than by REVERT) used all its gas and returned nothing, a call that never ran
 * (its value unpaid, the call stack full) none of it; an empty output is none; a
 * STATICCALL carries no value; a SELFDESTRUCT frame (Parity's `suicide`) has gas 0 and input 0x;
 * errors in callTracer's words and revert reasons decoded as callTracer does (parity-errors.ts).
 * What Parity does not carry:
 * - the top frame's gasUsed: callTracer gives the transaction's (the receipt's: intrinsic gas in,
 *   refunds out), Parity the execution's alone. Pass the receipts' figures to get callTracer's;
 *   without them the top frame keeps Parity's.
 * - calls to precompiles: callTracer has a frame for each; anvil's trace_block too, its
 *   trace_replayBlockTransactions none (Reth's code: precompiles left out of replays).
 * - which undefined opcode a frame met: Parity says "Bad instruction" of any (see parity-errors.ts).
 * - a reverted frame's gasUsed and output where the node gives no `result` for it: null.
 */
import type { Hash, Hex } from '../../lib/domain/records.ts';
import type { CallFrame, PrestateDiff, TransactionTrace } from '../../lib/chain-source.ts';
import { address, arr, big, hex, num, obj, RpcShapeError } from './parse.ts';
import { callTracerError, neverRan, REVERTED, revertReason } from './parity-errors.ts';
import { parityStateDiff } from './parity-diff.ts';
import { EMPTY_HEX } from '../../lib/domain/hex.ts';

export { parityStateDiff } from './parity-diff.ts';

type Obj = Record<string, unknown>;

/** The receipts' gasUsed by transaction hash (lower-case): the top frames' gasUsed as callTracer gives it. */
export type TransactionGasUsed = ReadonlyMap<Hash, bigint>;

const CALL_TYPES: ReadonlyMap<string, string> = new Map([
  ['call', 'CALL'],
  ['delegatecall', 'DELEGATECALL'],
  ['staticcall', 'STATICCALL'],
  ['callcode', 'CALLCODE'],
]);

const optBig = (v: unknown, what: string): bigint | null => (v === undefined || v === null ? null : big(v, what));
/** callTracer leaves an empty output out */
const output = (v: unknown, what: string): Hex | null => {
  const h = v === undefined || v === null ? null : hex(v, what);
  return h === null || h.length === 2 ? null : h;
};

/** One flat trace → its frame, without children. */
function frameOf(t: Obj, what: string): Omit<CallFrame, 'calls'> {
  const action = obj(t.action, `${what}.action`);
  const error = typeof t.error === 'string' && t.error !== '' ? callTracerError(t.error) : null;
  if (t.type === 'suicide' || t.type === 'selfdestruct') {
    return {
      type: 'SELFDESTRUCT',
      from: address(action.address, `${what}.action.address`),
      to: address(action.refundAddress, `${what}.action.refundAddress`),
      value: big(action.balance, `${what}.action.balance`),
      gas: 0n,
      gasUsed: 0n,
      input: EMPTY_HEX,
      output: null,
      error,
      revertReason: null,
    };
  }
  if (t.type !== 'call' && t.type !== 'create') throw new RpcShapeError(`${what}: type ${String(t.type)} is not a call, create or suicide`);
  const create = t.type === 'create';
  const result = t.result === undefined || t.result === null ? null : obj(t.result, `${what}.result`);
  if (result === null && error === null) throw new RpcShapeError(`${what}: neither result nor error`);
  const gas = big(action.gas, `${what}.action.gas`);
  // as callTracer says: a call that never ran used no gas, one that halted (not by REVERT) all of
  // its gas, and neither returned anything
  const unrun = error !== null && neverRan(error);
  const halted = error !== null && error !== REVERTED && !unrun;
  const out = halted || unrun || result === null ? null : output(create ? result.code : result.output, `${what}.result.${create ? 'code' : 'output'}`);
  const common = {
    from: address(action.from, `${what}.action.from`),
    gas,
    gasUsed: unrun ? 0n : halted ? gas : result === null ? null : big(result.gasUsed, `${what}.result.gasUsed`),
    output: out,
    error,
    revertReason: error === null ? null : revertReason(out),
  };
  if (create) {
    return {
      ...common,
      type: action.creationMethod === 'create2' ? 'CREATE2' : 'CREATE',
      to: error !== null || result === null ? null : address(result.address, `${what}.result.address`),
      value: big(action.value ?? '0x0', `${what}.action.value`),
      input: hex(action.init ?? '0x', `${what}.action.init`),
    };
  }
  const callType = typeof action.callType === 'string' ? action.callType.toLowerCase() : 'call';
  const type = CALL_TYPES.get(callType);
  if (type === undefined) throw new RpcShapeError(`${what}: callType ${callType}`);
  return {
    ...common,
    type,
    to: address(action.to, `${what}.action.to`),
    value: type === 'STATICCALL' ? null : optBig(action.value, `${what}.action.value`),
    input: hex(action.input ?? '0x', `${what}.action.input`),
  };
}

interface Node {
  readonly address: readonly number[];
  readonly subtraces: number | null;
  readonly frame: Omit<CallFrame, 'calls'>;
  readonly children: Node[];
}

const keyOf = (address: readonly number[]): string => address.join('.');

/** One transaction's flat traces → its frame tree, checked whole: one root, no duplicate, every parent present, every child its parent counts. */
function treeOf(traces: readonly Obj[], what: string, gasUsed: bigint | undefined): CallFrame {
  const nodes = new Map<string, Node>();
  traces.forEach((t, i) => {
    const w = `${what}[${i}]`;
    const address = arr(t.traceAddress, `${w}.traceAddress`).map((n, j) => num(n, `${w}.traceAddress[${j}]`));
    const key = keyOf(address);
    if (nodes.has(key)) throw new RpcShapeError(`${what}: two traces at traceAddress [${address.join(',')}]`);
    const subtraces = t.subtraces === undefined || t.subtraces === null ? null : num(t.subtraces, `${w}.subtraces`);
    nodes.set(key, { address, subtraces, frame: frameOf(t, w), children: [] });
  });
  const root = nodes.get('');
  if (root === undefined) throw new RpcShapeError(`${what}: no top-level trace (traceAddress [])`);
  for (const node of nodes.values()) {
    if (node === root) continue;
    const parent = nodes.get(keyOf(node.address.slice(0, -1)));
    if (parent === undefined) throw new RpcShapeError(`${what}: traceAddress [${node.address.join(',')}] has no parent`);
    parent.children.push(node);
  }
  const build = (node: Node): CallFrame => {
    const children = [...node.children].sort((a, b) => (a.address.at(-1) ?? 0) - (b.address.at(-1) ?? 0));
    children.forEach((c, i) => {
      if (c.address.at(-1) !== i) throw new RpcShapeError(`${what}: no trace at traceAddress [${[...node.address, i].join(',')}]`);
    });
    if (node.subtraces !== null && node.subtraces !== children.length) {
      throw new RpcShapeError(`${what}: traceAddress [${node.address.join(',')}] has ${node.subtraces} subtraces, ${children.length} given`);
    }
    return { ...node.frame, calls: children.map(build) };
  };
  const top = build(root);
  return gasUsed === undefined ? top : { ...top, gasUsed };
}

/**
 * trace_block → one TransactionTrace per hash asked, in that order. Rewards and entries without a
 * transaction hash are skipped; a trace of a transaction not asked, or a transaction without one,
 * throws RpcShapeError.
 */
export function parityCallTraces(transactionHashes: readonly Hash[], result: unknown, gasUsed?: TransactionGasUsed): TransactionTrace[] {
  const byHash = new Map<string, Obj[]>(transactionHashes.map((h) => [h.toLowerCase(), []]));
  arr(result, 'trace_block result').forEach((raw, i) => {
    const t = obj(raw, `trace_block[${i}]`);
    if (t.type === 'reward' || t.transactionHash === undefined || t.transactionHash === null) return;
    const hash = hex(t.transactionHash, `trace_block[${i}].transactionHash`);
    const traces = byHash.get(hash);
    if (traces === undefined) throw new RpcShapeError(`trace_block: a trace of ${hash}, which is not one of the block's transactions`);
    traces.push(t);
  });
  return transactionHashes.map((transactionHash) => {
    const traces = byHash.get(transactionHash.toLowerCase()) ?? [];
    if (traces.length === 0) throw new RpcShapeError(`trace_block: no trace of ${transactionHash}`);
    return { transactionHash, frame: treeOf(traces, `trace of ${transactionHash}`, gasUsed?.get(transactionHash.toLowerCase() as Hash)) };
  });
}

/**
 * trace_replayBlockTransactions(block, ["trace", "stateDiff"]) → the frames and diffs of the
 * transactions asked, in that order (one entry per transaction, in block order; an entry's
 * transactionHash, when given, must be the one asked at its place).
 */
export function parityReplay(
  transactionHashes: readonly Hash[],
  result: unknown,
  gasUsed?: TransactionGasUsed,
): { traces: TransactionTrace[]; diffs: PrestateDiff[] } {
  const entries = arr(result, 'trace_replayBlockTransactions result');
  if (entries.length !== transactionHashes.length) {
    throw new RpcShapeError(`trace_replayBlockTransactions: ${entries.length} entries for ${transactionHashes.length} transactions`);
  }
  const traces: TransactionTrace[] = [];
  const diffs: PrestateDiff[] = [];
  entries.forEach((raw, i) => {
    const transactionHash = transactionHashes[i] as Hash;
    const e = obj(raw, `trace_replayBlockTransactions[${i}]`);
    if (e.transactionHash !== undefined && e.transactionHash !== null && hex(e.transactionHash, `trace_replayBlockTransactions[${i}].transactionHash`) !== transactionHash.toLowerCase()) {
      throw new RpcShapeError(`trace_replayBlockTransactions: entry ${i} is ${String(e.transactionHash)}, expected ${transactionHash}`);
    }
    const flat = arr(e.trace, `replay of ${transactionHash}.trace`).map((t, j) => obj(t, `replay of ${transactionHash}.trace[${j}]`));
    if (flat.length === 0) throw new RpcShapeError(`trace_replayBlockTransactions: no trace of ${transactionHash}`);
    traces.push({ transactionHash, frame: treeOf(flat, `replay of ${transactionHash}`, gasUsed?.get(transactionHash.toLowerCase() as Hash)) });
    diffs.push(parityStateDiff(transactionHash, e.stateDiff));
  });
  return { traces, diffs };
}
