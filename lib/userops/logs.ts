/**
 * A bundle's receipt logs → each operation's slice: from just after the previous operation's
 * UserOperationEvent (the first: just after the bundle's BeforeExecution) to its own
 * UserOperationEvent — the next one from the same EntryPoint whose sender and nonce are the
 * operation's. Within a slice: the revert reason, and the operation's own logs (trimmed of the
 * EntryPoint's logs at both ends and of the paymaster's at the end), as Blockscout bounds them.
 */
import { decodeEventLog } from 'viem';
import type { Address, Hex } from '../domain/records.ts';
import type { SourceLog } from '../ports/chainSource.ts';
import { ENTRY_POINT_EVENTS_ABI, TOPICS } from './abi.ts';

export interface OperationEvent {
  readonly hash: Hex;
  readonly sender: Address;
  readonly paymaster: Address;
  readonly nonce: bigint;
  readonly success: boolean;
  readonly actualGasCost: bigint;
  readonly actualGasUsed: bigint;
}

/** the UserOperationEvent of a log, or null when it is none */
export function operationEvent(log: SourceLog): OperationEvent | null {
  if (log.topics[0] !== TOPICS.userOperationEvent) return null;
  try {
    const e = decodeEventLog({ abi: ENTRY_POINT_EVENTS_ABI, eventName: 'UserOperationEvent', topics: log.topics as [Hex, ...Hex[]], data: log.data });
    const a = e.args;
    return {
      hash: a.userOpHash.toLowerCase() as Hex,
      sender: a.sender.toLowerCase() as Address,
      paymaster: a.paymaster.toLowerCase() as Address,
      nonce: a.nonce,
      success: a.success,
      actualGasCost: a.actualGasCost,
      actualGasUsed: a.actualGasUsed,
    };
  } catch {
    return null;
  }
}

/** the raw revertReason of a UserOperationRevertReason log, or null */
export function revertReasonOf(log: SourceLog): Hex | null {
  if (log.topics[0] !== TOPICS.userOperationRevertReason) return null;
  try {
    const e = decodeEventLog({ abi: ENTRY_POINT_EVENTS_ABI, eventName: 'UserOperationRevertReason', topics: log.topics as [Hex, ...Hex[]], data: log.data });
    return e.args.revertReason.toLowerCase() as Hex;
  } catch {
    return null;
  }
}

/** the accounts credited by the EntryPoint's Deposited events in a receipt */
export function depositedAccounts(logs: readonly SourceLog[], entryPoint: Address): ReadonlySet<Address> {
  const out = new Set<Address>();
  for (const log of logs) {
    const topic = log.topics[1];
    if (log.address === entryPoint && log.topics[0] === TOPICS.deposited && topic !== undefined) out.add(`0x${topic.slice(26)}`.toLowerCase() as Address);
  }
  return out;
}

export interface OperationSlice {
  readonly logs: readonly SourceLog[];
  readonly event: OperationEvent;
}

/**
 * The slices of a bundle's operations, matched in order from `window` (the receipt's logs after
 * the bundle's BeforeExecution); null when any operation finds no event (the bundle is dropped).
 */
export function operationSlices(
  window: readonly SourceLog[],
  entryPoint: Address,
  ops: readonly { readonly sender: Address; readonly nonce: bigint }[],
): readonly OperationSlice[] | null {
  const out: OperationSlice[] = [];
  let from = 0;
  for (const op of ops) {
    let found: OperationSlice | null = null;
    for (let i = from; i < window.length; i++) {
      const log = window[i];
      if (log === undefined || log.address !== entryPoint) continue;
      const e = operationEvent(log);
      if (e !== null && e.sender === op.sender && e.nonce === op.nonce) {
        found = { logs: window.slice(from, i + 1), event: e };
        from = i + 1;
        break;
      }
    }
    if (found === null) return null;
    out.push(found);
  }
  return out;
}

/** (user_logs_start_index, user_logs_count) of a slice, as Blockscout bounds it */
export function userLogBounds(slice: readonly SourceLog[], entryPoint: Address, paymaster: Address | null): { start: number; count: number } {
  let l = 0;
  let r = slice.length;
  const at = (i: number): Address | undefined => slice[i]?.address;
  while (l < r && (at(r - 1) === entryPoint || (paymaster !== null && at(r - 1) === paymaster))) r--;
  while (l < r && at(l) === entryPoint) l++;
  return { start: slice[l]?.logIndex ?? 0, count: r - l };
}

/** the first revert reason logged by the EntryPoint in a slice */
export function firstRevertReason(slice: readonly SourceLog[], entryPoint: Address): Hex | null {
  for (const log of slice) {
    if (log.address !== entryPoint) continue;
    const r = revertReasonOf(log);
    if (r !== null) return r;
  }
  return null;
}
