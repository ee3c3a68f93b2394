/** The key of a verified contract: keccak256 of the runtime code. */
import { keccak256 } from 'viem';
import type { Hash, Hex } from '../domain/records.ts';
import { hash } from '../domain/hex.ts';

/** keccak256 of runtime code (lower-case `0x` hex), null for no code (`0x`). */
export function codeHashOf(code: Hex): Hash | null {
  if (code.length <= 2) return null;
  return hash(keccak256(code.toLowerCase() as Hex));
}
