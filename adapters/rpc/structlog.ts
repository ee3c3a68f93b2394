/**
 * callTracer's frame tree and the storage writes of a transaction, rebuilt from the default
 * struct-log tracer's opcode steps (`debug_traceTransaction` with no tracer: `{failed, gas,
 * returnValue, structLogs: [{pc, op, gas, gasCost, depth, stack, memory}]}`), for nodes that give
 * nothing else (Hardhat 2). Pure. anvil's callTracer is the oracle (test/adapters/rpc/structlog.test.ts).
 *
 * - A child frame opens at a CALL, CALLCODE, DELEGATECALL, STATICCALL, CREATE or CREATE2 step:
 *   gas, address, value and the input's memory range come from the stack at that step (top
 *   last), the input from its memory. The callee's steps follow one depth deeper; the frame ends
 *   where depth falls back, and the caller's next step has the call's result on top of its stack
 *   (0: failed; after a CREATE, the created address). A call that ran no code (an account
 *   without code, a precompile, a value it could not pay) has no steps: the caller's next step
 *   follows at the same depth.
 * - gas is the callee's first step's gas; for a call without steps it is what the node charged
 *   at the call step (the access, value and memory costs, then all but one 64th of the rest, at
 *   most the gas asked, plus the 2,300 stipend of a call with value). gasUsed is gas less what
 *   came back: the caller's gas after the call less its gas at the call after the call's cost.
 *   The top frame's gas is the gas its code started with (the transaction's gas less intrinsic
 *   gas, as anvil says; geth's callTracer gives the transaction's gas), its gasUsed the receipt's.
 * - output is what RETURN or REVERT handed back (memory at the step); a precompile's is read
 *   from the caller's memory where the call put it (the identity precompile's is its input).
 * - error in geth's callTracer words: "execution reverted", "out of gas", "invalid opcode: INVALID",
 *   "invalid opcode: opcode 0x.. not defined", "invalid jump destination", "write protection",
 *   "stack underflow (n <=> m)", "insufficient balance for transfer", "max call depth exceeded"...
 *   told from the failed frame's last step (and its `error`, when the node gives one); a failed
 *   creation has no `to`, as anvil gives it. revertReason is the decoded Error(string) or Panic.
 * - value: CALL's and CALLCODE's from the stack, DELEGATECALL's its caller's (as callTracer shows
 *   it), none for STATICCALL. SELFDESTRUCT is a frame of its own (to the beneficiary, gas 0) with
 *   value null: the balance it moved is not in the steps.
 * - Read from less than a tracer has: a precompile's output is the caller's memory over the range
 *   it asked (exact when it asked for the output's size, as Solidity does; none when it asked for
 *   nothing); a top frame that ran no code takes its intrinsic gas from the receipt (from the
 *   calldata when EIP-7623's floor or a precompile is in the receipt's, then without an access
 *   list's cost); a failed CREATE's own address (the `from` of calls its constructor made) is
 *   known only when it ran ADDRESS, a failed CREATE2's always.
 *
 * Storage writes: the last value of every slot a successful SSTORE wrote, per storage owner (for
 * DELEGATECALL and CALLCODE the caller's), writes of frames that failed discarded.
 *
 * An answer that is not a whole struct-log trace (not an object, no step array, a step without a
 * field the rebuild needs, a depth that jumps) throws RpcShapeError: never a partial tree.
 */
import { getContractAddress } from 'viem';
import type { Address, Hash, Hex } from '../../lib/domain/records.ts';
import type { CallFrame, SourceReceipt, SourceTransaction } from '../../lib/chain-source.ts';
import { arr, big, obj, RpcShapeError } from './parse.ts';
import { REVERTED, revertReason } from './parity-errors.ts';
import { EMPTY_HEX, hex, ZERO_ADDRESS } from '../../lib/domain/hex.ts';

type Obj = Record<string, unknown>;

interface Step {
  readonly index: number;
  readonly op: string;
  readonly gas: bigint;
  readonly gasCost: bigint;
  readonly depth: number;
  readonly raw: Obj;
}

/** An address known now, or once its creation returns. */
interface Box {
  address: Address | null;
}

interface Write {
  readonly owner: Box;
  readonly slot: bigint;
  readonly value: bigint;
}

/** A frame being rebuilt. */
interface Node {
  readonly type: string;
  readonly from: Box;
  /** the callee; for creations the created address once known */
  readonly to: Box;
  /** whose storage SSTORE writes and whose address calls come from */
  readonly self: Box;
  readonly value: bigint | null;
  readonly input: Hex;
  readonly depth: number;
  readonly isStatic: boolean;
  gas: bigint | null;
  gasUsed: bigint | null;
  output: Hex | null;
  error: string | null;
  readonly calls: Node[];
  writes: Write[];
  /** the last step this frame ran itself; null when it ran no code */
  last: Step | null;
}

const CALLS = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL']);
const CREATES = new Set(['CREATE', 'CREATE2']);
const WORD = 2n ** 256n;
const MAX_MEMORY = 1n << 30n;

// ---- the answer and its steps ----

/** `failed` is null where the node leaves it out (Ganache): the receipt's status says it */
function steps(result: unknown): { readonly failed: boolean | null; readonly returnValue: Hex | null; readonly steps: Step[] } {
  const r = obj(result, 'struct-log trace');
  if (r.failed !== undefined && typeof r.failed !== 'boolean') throw new RpcShapeError('struct-log trace: `failed` is not a boolean');
  const list = arr(r.structLogs, 'struct-log trace.structLogs').map((v, index): Step => {
    const s = obj(v, `structLogs[${index}]`);
    const what = `structLogs[${index}]`;
    if (typeof s.op !== 'string' || s.op === '') throw new RpcShapeError(`${what}.op: expected an opcode name`);
    if (typeof s.depth !== 'number' || !Number.isSafeInteger(s.depth) || s.depth < 1) throw new RpcShapeError(`${what}.depth: expected a positive integer`);
    return { index, op: s.op.toUpperCase(), gas: big(s.gas, `${what}.gas`), gasCost: big(s.gasCost, `${what}.gasCost`), depth: s.depth, raw: s };
  });
  const first = list[0];
  if (first !== undefined && first.depth !== 1) throw new RpcShapeError(`struct-log trace: the first step is at depth ${first.depth}, not 1`);
  const rv = r.returnValue;
  if (rv !== undefined && rv !== null && (typeof rv !== 'string' || !/^(0x)?([0-9a-fA-F]{2})*$/.test(rv))) throw new RpcShapeError('struct-log trace.returnValue: expected hex');
  const body = typeof rv === 'string' ? rv.replace(/^0x/, '').toLowerCase() : '';
  return { failed: typeof r.failed === 'boolean' ? r.failed : null, returnValue: body === '' ? null : (`0x${body}` as Hex), steps: list };
}

const WORD_HEX = /^(0x)?[0-9a-fA-F]{1,64}$/;

/** The step's stack, top first. */
function stack(s: Step, need: number): bigint[] {
  const raw = arr(s.raw.stack, `structLogs[${s.index}].stack (${s.op})`);
  if (raw.length < need) throw new RpcShapeError(`structLogs[${s.index}] (${s.op}): ${raw.length} stack items, ${need} needed`);
  const out: bigint[] = [];
  for (let k = raw.length - 1; k >= raw.length - need; k--) {
    const v = raw[k];
    if (typeof v !== 'string' || !WORD_HEX.test(v)) throw new RpcShapeError(`structLogs[${s.index}].stack: expected a hex word, got ${String(v)}`);
    out.push(BigInt(v.startsWith('0x') ? v : `0x${v}`));
  }
  return out;
}

const stackSize = (s: Step): number => arr(s.raw.stack, `structLogs[${s.index}].stack (${s.op})`).length;

function memoryWords(s: Step): string[] {
  const raw = arr(s.raw.memory, `structLogs[${s.index}].memory (${s.op}: ask with memory on)`);
  return raw.map((w, k) => {
    if (typeof w !== 'string' || !/^(0x)?[0-9a-fA-F]{64}$/.test(w)) throw new RpcShapeError(`structLogs[${s.index}].memory[${k}]: expected a 32-byte word`);
    return w.replace(/^0x/, '').toLowerCase();
  });
}

/** memory[offset, offset + length) at the step (zeros past its end); null when the range cannot be real. */
function readMemory(s: Step, offset: bigint, length: bigint): Hex | null {
  if (length === 0n) return EMPTY_HEX;
  if (offset + length > MAX_MEMORY) return null;
  const words = memoryWords(s);
  const from = Number(offset);
  const to = Number(offset + length);
  let out = '';
  for (let w = Math.floor(from / 32); w * 32 < to; w++) out += words[w] ?? '0'.repeat(64);
  const start = (from % 32) * 2;
  return `0x${out.slice(start, start + (to - from) * 2)}` as Hex;
}

const toAddress = (v: bigint): Address => `0x${(v % 2n ** 160n).toString(16).padStart(40, '0')}` as Address;
const toWord = (v: bigint): Hash => `0x${(v % WORD).toString(16).padStart(64, '0')}` as Hash;
const words = (bytes: bigint): bigint => (bytes + 31n) / 32n;
const memoryCost = (w: bigint): bigint => 3n * w + (w * w) / 512n;
const allButOne64th = (g: bigint): bigint => g - g / 64n;
const isPrecompile = (a: Address): boolean => {
  const n = BigInt(a);
  return (n >= 1n && n <= 0x11n) || n === 0x100n;
};

/** What growing memory to cover the ranges costs at the step. */
function expansion(s: Step, ranges: readonly (readonly [bigint, bigint])[]): bigint {
  const before = BigInt(memoryWords(s).length);
  let need = before;
  for (const [offset, length] of ranges) if (length > 0n && words(offset + length) > need) need = words(offset + length);
  return memoryCost(need) - memoryCost(before);
}

// ---- failures in callTracer's words ----

/** The names nodes put in a step's `error` (revm's, EDR's) → geth's. */
const STEP_ERRORS: ReadonlyArray<readonly [RegExp, string]> = [
  [/out ?of ?gas|outofgas|memoryoog|memorylimitoog|precompileoog|invalidoperandoog/i, 'out of gas'],
  [/invalidjump/i, 'invalid jump destination'],
  [/statechangeduringstaticcall|write protection/i, 'write protection'],
  [/invalidfeopcode|designatedinvalid/i, 'invalid opcode: INVALID'],
  [/outofoffset|return data out of bounds/i, 'return data out of bounds'],
  [/calltoodeep|max call depth/i, 'max call depth exceeded'],
  [/outoffunds|insufficient balance/i, 'insufficient balance for transfer'],
  [/createcollision|collision/i, 'contract address collision'],
];

/** The stack items each opcode takes (for "stack underflow"). */
function pops(op: string): number | null {
  const fixed: Readonly<Record<string, number>> = {
    STOP: 0, ADD: 2, MUL: 2, SUB: 2, DIV: 2, SDIV: 2, MOD: 2, SMOD: 2, ADDMOD: 3, MULMOD: 3, EXP: 2, SIGNEXTEND: 2,
    LT: 2, GT: 2, SLT: 2, SGT: 2, EQ: 2, ISZERO: 1, AND: 2, OR: 2, XOR: 2, NOT: 1, BYTE: 2, SHL: 2, SHR: 2, SAR: 2, CLZ: 1,
    KECCAK256: 2, SHA3: 2, BALANCE: 1, CALLDATALOAD: 1, CALLDATACOPY: 3, CODECOPY: 3, EXTCODESIZE: 1, EXTCODECOPY: 4,
    RETURNDATACOPY: 3, EXTCODEHASH: 1, BLOCKHASH: 1, BLOBHASH: 1, POP: 1, MLOAD: 1, MSTORE: 2, MSTORE8: 2, SLOAD: 1,
    SSTORE: 2, JUMP: 1, JUMPI: 2, TLOAD: 1, TSTORE: 2, MCOPY: 3, CREATE: 3, CALL: 7, CALLCODE: 7, RETURN: 2,
    DELEGATECALL: 6, CREATE2: 4, STATICCALL: 6, REVERT: 2, SELFDESTRUCT: 1,
  };
  const n = fixed[op];
  if (n !== undefined) return n;
  const m = /^(DUP|SWAP|LOG)(\d+)$/.exec(op);
  if (m === null) return null;
  const k = Number(m[2]);
  return m[1] === 'DUP' ? k : m[1] === 'SWAP' ? k + 1 : k + 2;
}

const WRITES = /^(SSTORE|TSTORE|LOG[0-4]|CREATE2?|SELFDESTRUCT)$/;

/** Why a frame that ran code failed, from its last step. */
function failure(node: Node, s: Step): string {
  const given = typeof s.raw.error === 'string' ? s.raw.error : typeof s.raw.error === 'object' && s.raw.error !== null ? String((s.raw.error as Obj).message ?? '') : '';
  for (const [pattern, words] of STEP_ERRORS) if (pattern.test(given)) return words;
  if (s.op === 'REVERT') return REVERTED;
  if (s.op === 'INVALID') return 'invalid opcode: INVALID';
  const undefinedOp = /^OPCODE 0X\$?([0-9A-F]+) NOT DEFINED$/.exec(s.op);
  if (undefinedOp !== null) return `invalid opcode: opcode 0x${(undefinedOp[1] ?? '').toLowerCase()} not defined`;
  // EDR names an undefined opcode "Unknown" (its byte is not in the step)
  if (s.op === 'UNKNOWN' || /^OPCODE/.test(s.op)) return 'invalid opcode';
  // geth logs the step that ran out with its whole cost, EDR with what was left
  if (s.gasCost >= s.gas) return 'out of gas';
  const need = pops(s.op);
  const have = stackSize(s);
  if (need !== null && have < need) return `stack underflow (${have} <=> ${need})`;
  if (have >= 1024) return `stack limit reached 1024 (1023)`;
  if (node.isStatic && (WRITES.test(s.op) || (s.op === 'CALL' && (stack(s, 3)[2] ?? 0n) !== 0n))) return 'write protection';
  if (s.op === 'JUMP' || s.op === 'JUMPI') return 'invalid jump destination';
  if (s.op === 'RETURNDATACOPY') return 'return data out of bounds';
  if (s.op === 'RETURN' && CREATES.has(node.type)) {
    const [offset = 0n, length = 0n] = stack(s, 2);
    if (length > 24_576n) return 'max code size exceeded';
    if (length > 0n && readMemory(s, offset, 1n) === hex('0xef')) return 'invalid code: must not begin with 0xef';
    return 'contract creation code storage out of gas';
  }
  return 'out of gas';
}

/** Why a call that ran no code failed. */
function noCodeFailure(node: Node): string {
  if (node.depth > 1024) return 'max call depth exceeded';
  if ((node.value ?? 0n) > 0n && node.type !== 'DELEGATECALL') return 'insufficient balance for transfer';
  if (CREATES.has(node.type)) return 'contract address collision';
  return 'out of gas';
}

// ---- gas of a call that ran no code ----

/** The gas the node gave a call without steps: the one reading of its charge that adds up, else null. */
function noCodeCallGas(s: Step, type: string, askedGas: bigint, value: bigint, ranges: readonly (readonly [bigint, bigint])[]): bigint | null {
  const transfer = (type === 'CALL' || type === 'CALLCODE') && value > 0n;
  const memory = expansion(s, ranges);
  for (const access of [100n, 2600n]) {
    for (const newAccount of type === 'CALL' && transfer ? [0n, 25_000n] : [0n]) {
      const base = access + (transfer ? 9000n : 0n) + newAccount + memory;
      if (s.gas < base) continue;
      const forwarded = askedGas < allButOne64th(s.gas - base) ? askedGas : allButOne64th(s.gas - base);
      if (base + forwarded === s.gasCost) return forwarded + (transfer ? 2300n : 0n);
    }
  }
  return null;
}

/** The gas a creation without steps was given: its charge less the creation's own costs. */
function noCodeCreateGas(s: Step, type: string, offset: bigint, length: bigint): bigint | null {
  const base = 32_000n + 2n * words(length) + (type === 'CREATE2' ? 6n * words(length) : 0n) + expansion(s, [[offset, length]]);
  return s.gasCost >= base ? s.gasCost - base : null;
}

// ---- the walk ----

const box = (address: Address | null): Box => ({ address });

/** The frame a call step opens, before it runs; with what its gas and output are told by. */
interface Opened {
  readonly node: Node;
  readonly askedGas: bigint;
  /** the input's and the output's memory ranges (offset, length) */
  readonly ranges: readonly (readonly [bigint, bigint])[];
}

function open(s: Step, parent: Node): Opened {
  const common = { depth: parent.depth + 1, gas: null, gasUsed: null, output: null, error: null, calls: [], writes: [], last: null };
  const input = (offset: bigint, length: bigint): Hex => {
    const data = readMemory(s, offset, length);
    if (data === null) throw new RpcShapeError(`structLogs[${s.index}] (${s.op}): input at ${offset}+${length} is past any memory`);
    return data;
  };
  if (CREATES.has(s.op)) {
    const [value = 0n, offset = 0n, length = 0n, salt = 0n] = stack(s, s.op === 'CREATE2' ? 4 : 3);
    const code = input(offset, length);
    const from = parent.self.address;
    // CREATE2's address is known before it runs (a failed one's calls still come from it); CREATE's once it returns
    const self = box(s.op === 'CREATE2' && from !== null ? (getContractAddress({ opcode: 'CREATE2', from, salt: toWord(salt), bytecode: code }).toLowerCase() as Address) : null);
    const node: Node = { ...common, type: s.op, from: parent.self, to: box(null), self, value, input: code, isStatic: parent.isStatic };
    return { node, askedGas: 0n, ranges: [[offset, length]] };
  }
  const withValue = s.op === 'CALL' || s.op === 'CALLCODE';
  const st = stack(s, withValue ? 7 : 6);
  const [asked = 0n, target = 0n] = st;
  const [argsOffset = 0n, argsLength = 0n, retOffset = 0n, retLength = 0n] = st.slice(withValue ? 3 : 2);
  const to = box(toAddress(target));
  const ownStorage = s.op === 'CALL' || s.op === 'STATICCALL';
  // DELEGATECALL runs with its caller's value (callTracer shows it), STATICCALL with none
  const value = withValue ? (st[2] ?? 0n) : s.op === 'DELEGATECALL' ? (parent.value ?? 0n) : null;
  const node: Node = {
    ...common, type: s.op, from: parent.self, to, self: ownStorage ? to : parent.self, value,
    input: input(argsOffset, argsLength), isStatic: parent.isStatic || s.op === 'STATICCALL',
  };
  return { node, askedGas: asked, ranges: [[argsOffset, argsLength], [retOffset, retLength]] };
}

const nonEmpty = (h: Hex | null): Hex | null => (h === null || h === EMPTY_HEX ? null : h);

/** The data a frame's last step (RETURN, or REVERT) hands back, from memory; null for any other end. */
function returnedData(last: Step | null, ok: boolean): Hex | null {
  if (last === null || !((last.op === 'RETURN' && ok) || last.op === 'REVERT')) return null;
  const [offset = 0n, length = 0n] = stack(last, 2);
  return nonEmpty(readMemory(last, offset, length));
}

/** What the frame handed back: RETURN's or REVERT's data; a precompile's from where the call put it. */
function outputOf(c: Node, ok: boolean, opened: Opened, after: Step): Hex | null {
  if (c.last !== null) return returnedData(c.last, ok);
  const to = c.to.address;
  if (!ok || to === null || CREATES.has(c.type) || !isPrecompile(to)) return null;
  if (BigInt(to) === 4n) return nonEmpty(c.input);
  const [offset = 0n, length = 0n] = opened.ranges[1] ?? [];
  return nonEmpty(readMemory(after, offset, length));
}

/** Close a child frame with the caller's step after it: success, created address, gas, output, error. */
function close(c: Node, s: Step, after: Step, opened: Opened): boolean {
  const [result = 0n] = stack(after, 1);
  const ok = result !== 0n;
  if (ok && CREATES.has(c.type)) {
    c.to.address = toAddress(result);
    c.self.address = toAddress(result);
  }
  const returned = after.gas - (s.gas - s.gasCost);
  if (c.last === null) {
    const [offset = 0n, length = 0n] = opened.ranges[0] ?? [];
    c.gas = (CREATES.has(c.type) ? noCodeCreateGas(s, c.type, offset, length) : noCodeCallGas(s, c.type, opened.askedGas, c.value ?? 0n, opened.ranges)) ?? returned;
  }
  const gas = c.gas ?? 0n;
  c.gasUsed = returned < 0n ? gas : returned > gas ? 0n : gas - returned;
  c.error = ok ? null : c.last === null ? noCodeFailure(c) : failure(c, c.last);
  c.output = c.error === null || c.error === REVERTED ? outputOf(c, ok, opened, after) : null;
  finish(c, ok);
  return ok;
}

/** A frame's SELFDESTRUCT is a frame of its own, kept when the frame ended well. */
function finish(node: Node, ok: boolean): void {
  const last = node.last;
  if (!ok || last === null || last.op !== 'SELFDESTRUCT') return;
  const [beneficiary = 0n] = stack(last, 1);
  node.calls.push({
    type: 'SELFDESTRUCT', from: node.self, to: box(toAddress(beneficiary)), self: node.self, value: null, input: EMPTY_HEX,
    depth: node.depth + 1, isStatic: node.isStatic, gas: 0n, gasUsed: 0n, output: null, error: null, calls: [], writes: [], last: null,
  });
}

/** A call step: the frame it opens, run to its end; the index of the caller's next step. */
function callAt(list: readonly Step[], i: number, node: Node): number {
  const s = list[i] as Step;
  const next = list[i + 1];
  // the call step itself failed (out of gas before calling): no frame, and its caller ends here
  if (next === undefined || next.depth < node.depth) return i + 1;
  const opened = open(s, node);
  const c = opened.node;
  let j = i + 1;
  if (next.depth === node.depth + 1) {
    c.gas = next.gas;
    j = run(list, i + 1, c);
  } else if (next.depth !== node.depth) {
    throw new RpcShapeError(`structLogs[${i + 1}]: depth ${next.depth} right after a ${s.op} at depth ${node.depth}`);
  }
  const after = list[j];
  if (after === undefined || after.depth !== node.depth) {
    throw new RpcShapeError(`structLogs[${i}] (${s.op}): its caller does not go on at depth ${node.depth} after it${after === undefined ? ' (the trace ends)' : ` (depth ${after.depth} at step ${j})`}`);
  }
  if (close(c, s, after, opened)) node.writes.push(...c.writes);
  node.calls.push(c);
  return j;
}

/** Run a frame's own steps from `i` (its first); the index of the first step after them. */
function run(list: readonly Step[], start: number, node: Node): number {
  let i = start;
  while (i < list.length) {
    const s = list[i] as Step;
    if (s.depth < node.depth) break;
    if (s.depth > node.depth) throw new RpcShapeError(`structLogs[${i}]: depth ${s.depth} after depth ${node.depth} without a call`);
    node.last = s;
    if (CALLS.has(s.op) || CREATES.has(s.op)) {
      i = callAt(list, i, node);
      continue;
    }
    if (s.op === 'SSTORE') {
      const [slot = 0n, value = 0n] = stack(s, 2);
      node.writes.push({ owner: node.self, slot, value });
    } else if (s.op === 'ADDRESS' && node.self.address === null && list[i + 1]?.depth === node.depth) {
      // a creation's own address, before it returns (for the calls it makes)
      node.self.address = toAddress(stack(list[i + 1] as Step, 1)[0] ?? 0n);
    }
    i++;
  }
  return i;
}

/** Intrinsic gas of a transaction whose code never ran (the receipt's gas, unless a precompile or EIP-7623's floor is in it). */
function intrinsicGas(tx: SourceTransaction, receipt: SourceReceipt): bigint {
  const data = tx.input.slice(2);
  let tokens = 0n;
  for (let k = 0; k < data.length; k += 2) tokens += data.slice(k, k + 2) === '00' ? 1n : 4n;
  const standard = 21_000n + 4n * tokens + (tx.to === null ? 32_000n + 2n * words(BigInt(data.length / 2)) : 0n);
  const floor = 21_000n + 10n * tokens;
  if (tx.to !== null && isPrecompile(tx.to)) return standard;
  return receipt.gasUsed > floor ? receipt.gasUsed : standard;
}

interface Rebuilt {
  readonly node: Node;
  readonly ok: boolean;
  readonly returnValue: Hex | null;
  readonly first: Step | undefined;
}

function rebuild(tx: SourceTransaction, result: unknown, contractAddress: Address | null, succeeded: boolean | null = null): Rebuilt {
  const given = steps(result);
  const failed = given.failed ?? (succeeded === null ? null : !succeeded);
  if (failed === null) throw new RpcShapeError('struct-log trace: `failed` is not a boolean');
  const parsed = { ...given, failed };
  const created = contractAddress ?? (getContractAddress({ from: tx.from, nonce: BigInt(tx.nonce) }).toLowerCase() as Address);
  const self = box(tx.to === null ? created : tx.to);
  const node: Node = {
    type: tx.to === null ? 'CREATE' : 'CALL', from: box(tx.from), to: tx.to === null ? box(parsed.failed ? null : created) : self, self,
    value: tx.value, input: tx.input, depth: 1, isStatic: false, gas: null, gasUsed: null, output: null, error: null, calls: [], writes: [], last: null,
  };
  run(parsed.steps, 0, node);
  finish(node, !parsed.failed);
  return { node, ok: !parsed.failed, returnValue: parsed.returnValue, first: parsed.steps[0] };
}

function toFrame(n: Node): CallFrame {
  return {
    type: n.type,
    from: n.from.address ?? ZERO_ADDRESS,
    to: n.to.address,
    value: n.value,
    gas: n.gas,
    gasUsed: n.gasUsed,
    input: n.input,
    output: n.output,
    error: n.error,
    revertReason: n.error === REVERTED ? revertReason(n.output) : null,
    calls: n.calls.map(toFrame),
  };
}

/** The transaction's callTracer frame tree, rebuilt from its struct-log trace (see the top of this file). */
export function framesFromStructLogs(tx: SourceTransaction, receipt: SourceReceipt, result: unknown): CallFrame {
  const succeeded = receipt.status === null ? null : receipt.status === 'success';
  const { node, ok, returnValue, first } = rebuild(tx, result, tx.to === null ? receipt.contractAddress : null, succeeded);
  node.gas = first !== undefined ? first.gas : tx.gas > intrinsicGas(tx, receipt) ? tx.gas - intrinsicGas(tx, receipt) : 0n;
  node.gasUsed = receipt.gasUsed;
  node.error = ok ? null : node.last === null ? 'out of gas' : failure(node, node.last);
  // Ganache's returnValue is always empty: then the output is read from memory at the top frame's end
  node.output = node.error === null || node.error === REVERTED ? (returnValue ?? returnedData(node.last, ok)) : null;
  return toFrame(node);
}

/**
 * The last value of every storage slot the transaction wrote and kept (per storage owner: for
 * DELEGATECALL and CALLCODE the caller; writes of failed frames, or of a failed transaction,
 * dropped), slots and values as lower-case 32-byte hex.
 */
export function storageWritesFromStructLogs(tx: SourceTransaction, result: unknown): Map<Address, Map<Hash, Hash>> {
  const { node, ok } = rebuild(tx, result, null);
  const out = new Map<Address, Map<Hash, Hash>>();
  if (!ok) return out;
  for (const w of node.writes) {
    const owner = w.owner.address;
    if (owner === null) continue;
    let slots = out.get(owner);
    if (slots === undefined) {
      slots = new Map();
      out.set(owner, slots);
    }
    slots.set(toWord(w.slot), toWord(w.value));
  }
  return out;
}
