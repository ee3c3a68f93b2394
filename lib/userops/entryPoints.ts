/**
 * Which addresses are EntryPoints, and of which version: the three canonical deployments plus
 * any given in configuration. v0.7 and v0.8 share one ABI and one family (their bundles are
 * counted together in a transaction, as Blockscout's single v0.7–v0.8 task does).
 */
import type { Address } from '../domain/records.ts';
import type { EntryPointVersion } from '../domain/userOperations.ts';
import { address } from '../domain/hex.ts';

export const ENTRY_POINT_V06 = address('0x5ff137d4b0fdcd49dca30c7cf57e578a026d2789');
export const ENTRY_POINT_V07 = address('0x0000000071727de22e5e9d8baf0edac6f37da032');
export const ENTRY_POINT_V08 = address('0x4337084d9e255ff0702461cf8895ce9e3b5ff108');

/** EntryPoint address (lower-case) → its version */
export type EntryPoints = ReadonlyMap<Address, EntryPointVersion>;

/** The ABI family a version decodes with: 'v0.6' (UserOperation) or 'v0.7' (PackedUserOperation). */
export type EntryPointFamily = 'v0.6' | 'v0.7';

export const familyOf = (version: EntryPointVersion): EntryPointFamily => (version === 'v0.6' ? 'v0.6' : 'v0.7');

export const DEFAULT_ENTRY_POINTS: EntryPoints = new Map<Address, EntryPointVersion>([
  [ENTRY_POINT_V06, 'v0.6'],
  [ENTRY_POINT_V07, 'v0.7'],
  [ENTRY_POINT_V08, 'v0.8'],
]);

/** The defaults plus `extra` (lower-cased; an extra address overrides a default's version). */
export function entryPointsWith(extra: Readonly<Record<string, EntryPointVersion>> = {}): EntryPoints {
  const all = new Map(DEFAULT_ENTRY_POINTS);
  for (const [address, version] of Object.entries(extra)) all.set(address.toLowerCase() as Address, version);
  return all;
}
