/**
 * callTracer trees → internal transactions (depth-first, index 0 = the top call), created
 * contracts and the failure facts a transaction record needs. Pure.
 */
import type { Address, Hash, Hex, InternalTransactionRecord, TraceFrameRecord } from '../domain/records.ts';
import type { CallFrame } from '../chain-source.ts';
import { hex } from '../domain/hex.ts';

export interface TraceContext {
  readonly transactionHash: Hash;
  readonly transactionIndex: number;
  readonly blockNumber: number;
  readonly blockHash: Hash;
  readonly timestamp: number;
  /** the transaction's gas limit (some nodes report 0 gas on the top frame) */
  readonly transactionGas: bigint;
}

const CALL_TYPES = new Set(['call', 'delegatecall', 'staticcall', 'callcode']);

/** The record type: call type for calls, else create / create2 / selfdestruct (lower-case). */
export function frameType(frame: CallFrame): string {
  const t = frame.type.toLowerCase();
  if (CALL_TYPES.has(t) || t === 'create' || t === 'create2' || t === 'selfdestruct') return t;
  return t;
}

const isCreate = (type: string): boolean => type === 'create' || type === 'create2';

/** Depth-first frames with their index (0 = the top call). */
export function walkFrames(top: CallFrame): { readonly frame: CallFrame; readonly index: number }[] {
  const out: { frame: CallFrame; index: number }[] = [];
  const stack: CallFrame[] = [top];
  while (stack.length > 0) {
    const frame = stack.pop();
    if (frame === undefined) break;
    out.push({ frame, index: out.length });
    for (let i = frame.calls.length - 1; i >= 0; i--) {
      const child = frame.calls[i];
      if (child !== undefined) stack.push(child);
    }
  }
  return out;
}

export function internalTransactions(top: CallFrame, ctx: TraceContext): InternalTransactionRecord[] {
  return walkFrames(top).map(({ frame, index }) => {
    const type = frameType(frame);
    const create = isCreate(type);
    const gas = index === 0 && (frame.gas === null || frame.gas === 0n) ? ctx.transactionGas : frame.gas;
    return {
      transactionHash: ctx.transactionHash,
      blockNumber: ctx.blockNumber,
      blockHash: ctx.blockHash,
      transactionIndex: ctx.transactionIndex,
      index,
      timestamp: ctx.timestamp,
      type,
      from: frame.from,
      to: create ? null : frame.to,
      createdContract: create && frame.error === null ? frame.to : null,
      value: frame.value ?? 0n,
      gas,
      gasUsed: frame.gasUsed,
      error: frame.error,
    };
  });
}

/**
 * The frames as stored (TraceFrameRecord): depth-first index (0 = the top call) and the child
 * positions from the top call, every field as the tracer reported it.
 */
export function traceFrameRecords(top: CallFrame, ctx: Pick<TraceContext, 'transactionHash' | 'transactionIndex' | 'blockNumber' | 'blockHash'>): TraceFrameRecord[] {
  const out: TraceFrameRecord[] = [];
  const visit = (frame: CallFrame, traceAddress: readonly number[]): void => {
    out.push({
      transactionHash: ctx.transactionHash,
      blockNumber: ctx.blockNumber,
      blockHash: ctx.blockHash,
      transactionIndex: ctx.transactionIndex,
      index: out.length,
      traceAddress,
      type: frame.type,
      from: frame.from,
      to: frame.to,
      value: frame.value,
      gas: frame.gas,
      gasUsed: frame.gasUsed,
      input: frame.input,
      output: frame.output,
      error: frame.error,
      revertReason: frame.revertReason,
    });
    frame.calls.forEach((child, i) => visit(child, [...traceAddress, i]));
  };
  visit(top, []);
  return out;
}

/** A contract created by a frame: its creator, init code (the frame's input) and runtime code (its output). */
export interface FrameCreation {
  readonly address: Address;
  readonly creator: Address;
  readonly init: Hex;
  readonly code: Hex | null;
}

/** Contracts created by a transaction's frames that did not fail (nor had a failed ancestor). */
export function createdContracts(top: CallFrame): FrameCreation[] {
  const out: FrameCreation[] = [];
  const visit = (frame: CallFrame): void => {
    if (frame.error !== null) return; // a failed frame reverts everything below it
    if (isCreate(frameType(frame)) && frame.to !== null) {
      out.push({ address: frame.to, creator: frame.from, init: frame.input, code: frame.output });
    }
    for (const c of frame.calls) visit(c);
  };
  visit(top);
  return out;
}

export function hasFrameError(top: CallFrame): boolean {
  return walkFrames(top).some(({ frame }) => frame.error !== null);
}

/** Raw revert data of a failed top call, when the tracer returned any. */
export function revertData(top: CallFrame): Hex | null {
  if (top.error === null) return null;
  const out = top.output;
  return out !== null && out.length > 2 ? hex(out.toLowerCase()) : null;
}

/**
 * Addresses whose coin balance a successful call tree moves (value > 0, not delegatecall),
 * used where no prestate diff exists.
 */
export function valueParties(top: CallFrame): Address[] {
  const out = new Set<Address>();
  const visit = (frame: CallFrame): void => {
    if (frame.error !== null) return;
    if ((frame.value ?? 0n) > 0n && frameType(frame) !== 'delegatecall') {
      out.add(frame.from);
      if (frame.to !== null) out.add(frame.to);
    }
    for (const c of frame.calls) visit(c);
  };
  visit(top);
  return [...out];
}
