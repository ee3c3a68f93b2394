/**
 * What a Parity-style trace says of a failed frame, in callTracer's words: its error (Parity's
 * "Reverted", "Out of gas", ... as geth's callTracer names the same failure, anvil's callTracer
 * being the oracle) and the revert reason callTracer decodes from the revert data. Pure.
 */
import { decodeAbiParameters } from 'viem';
import type { Hex } from '../../lib/domain/records.ts';

/** callTracer's error of a frame that ended in REVERT: such a frame keeps its gasUsed and output. */
export const REVERTED = 'execution reverted';

/**
 * Parity's word → callTracer's. A word Parity shares among several failures takes the commonest:
 * "Out of gas" also stands for geth's "out of gas: out of memory" and the like, "Bad instruction"
 * for an undefined opcode (geth "invalid opcode: opcode 0x.. not defined", anvil "invalid opcode")
 * as well as INVALID (0xfe, Solidity's assert before 0.8). Words not here pass unchanged: anvil
 * names the rest of its failures alike in both styles ("Out of stack", "StackUnderflow",
 * "StateChangeDuringStaticCall", ...), and a node that already speaks geth's words keeps them.
 */
const CALL_TRACER_ERRORS: ReadonlyMap<string, string> = new Map([
  ['Reverted', REVERTED],
  ['Out of gas', 'out of gas'],
  ['Bad jump destination', 'invalid jump destination'],
  ['Bad instruction', 'invalid opcode: INVALID'],
  ['Stack underflow', 'stack underflow'],
  ['Insufficient balance for transfer', 'insufficient balance for transfer'],
  ['Built-in failed', 'precompiled failed'],
  ['Out of bounds', 'return data out of bounds'],
  ['Mutable Call In Static Context', 'write protection'],
]);

export const callTracerError = (parity: string): string => CALL_TRACER_ERRORS.get(parity) ?? parity;

/**
 * callTracer's errors of a call that never ran (its value could not be paid, or the stack of calls
 * was full): the gas is handed back, so callTracer says gasUsed 0, where Parity gives no result.
 * anvil names the second by its status (`CallTooDeep`), geth "max call depth exceeded".
 */
const NOT_RUN: ReadonlySet<string> = new Set(['insufficient balance for transfer', 'CallTooDeep', 'max call depth exceeded']);

export const neverRan = (error: string): boolean => NOT_RUN.has(error);

const ERROR_SELECTOR = '0x08c379a0';
const PANIC_SELECTOR = '0x4e487b71';

/** Solidity's panic codes as geth names them (abi.UnpackRevert). */
const PANICS: ReadonlyMap<bigint, string> = new Map([
  [0x00n, 'generic panic'],
  [0x01n, 'assert(false)'],
  [0x11n, 'arithmetic underflow or overflow'],
  [0x12n, 'division or modulo by zero'],
  [0x21n, 'enum overflow'],
  [0x22n, 'invalid encoded storage byte array accessed'],
  [0x31n, 'out-of-bounds array access; popping on an empty array'],
  [0x32n, 'out-of-bounds access of an array or bytesN'],
  [0x41n, 'out of memory'],
  [0x51n, 'uninitialized function'],
]);

/**
 * The revert reason callTracer gives for a failed frame's output: an `Error(string)`'s message
 * (none when empty or only NULs), a `Panic(uint256)`'s geth text, else null (custom errors, raw
 * bytes, data that does not decode).
 */
export function revertReason(output: Hex | null): string | null {
  if (output === null || output.length < 10) return null;
  const selector = output.slice(0, 10).toLowerCase();
  const args = `0x${output.slice(10)}` as Hex;
  try {
    if (selector === ERROR_SELECTOR) {
      const [reason] = decodeAbiParameters([{ type: 'string' }], args);
      return reason.replace(/\0/g, '') === '' ? null : reason;
    }
    if (selector === PANIC_SELECTOR) {
      const [code] = decodeAbiParameters([{ type: 'uint256' }], args);
      return PANICS.get(code) ?? `unknown panic code: 0x${code.toString(16)}`;
    }
  } catch {
    return null;
  }
  return null;
}
