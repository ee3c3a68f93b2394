/**
 * The bundle calls of one transaction for one EntryPoint family, in execution order: the
 * transaction's own input when it holds one bundle and is sent to an EntryPoint of the family,
 * else every successful CALL frame (no reverted ancestor) to such an EntryPoint whose input
 * decodes as handleOps / handleAggregatedOps. Without a trace only the first case is answered.
 */
import type { CallFrame, SourceTransaction } from '../ports/chainSource.ts';
import type { Address } from '../domain/records.ts';
import type { DecodedBundle } from './calldata.ts';
import { decodeBundleCall } from './calldata.ts';
import type { EntryPointFamily, EntryPoints } from './entryPoints.ts';
import { familyOf } from './entryPoints.ts';

export interface BundleCall extends DecodedBundle {
  readonly entryPoint: Address;
}

const inFamily = (entryPoints: EntryPoints, family: EntryPointFamily, a: Address | null): a is Address => {
  if (a === null) return false;
  const v = entryPoints.get(a);
  return v !== undefined && familyOf(v) === family;
};

function frameCalls(frame: CallFrame, entryPoints: EntryPoints, family: EntryPointFamily, out: BundleCall[]): void {
  if (frame.error !== null) return; // a reverted frame and everything below it left no logs
  if (frame.type.toUpperCase() === 'CALL' && inFamily(entryPoints, family, frame.to)) {
    const bundle = decodeBundleCall(family, frame.input);
    if (bundle !== null) out.push({ ...bundle, entryPoint: frame.to });
  }
  for (const c of frame.calls) frameCalls(c, entryPoints, family, out);
}

/**
 * The family's bundle calls of `tx`, or null when they cannot be told (several bundles, or one
 * sent through another contract, and no trace).
 */
export function bundleCalls(
  tx: SourceTransaction,
  frame: CallFrame | undefined,
  markers: number,
  entryPoints: EntryPoints,
  family: EntryPointFamily,
): readonly BundleCall[] | null {
  if (markers === 1 && inFamily(entryPoints, family, tx.to)) {
    const bundle = decodeBundleCall(family, tx.input);
    if (bundle !== null) return [{ ...bundle, entryPoint: tx.to }];
  }
  if (frame === undefined) return null;
  const out: BundleCall[] = [];
  frameCalls(frame, entryPoints, family, out);
  return out;
}
