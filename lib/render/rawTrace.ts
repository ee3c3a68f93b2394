/**
 * A transaction's stored callTracer frames → the Parity-style trace array of raw-trace, as
 * Blockscout builds it from the internal transactions it parsed out of a Geth callTracer
 * (EthereumJSONRPC.Geth's call-tracer parsing, then Explorer.Chain.InternalTransaction's
 * `internal_transactions_to_raw` with InternalTransaction.Action / Result `to_raw`):
 *
 * - a CALL / CALLCODE / DELEGATECALL / STATICCALL frame → `type: "call"`, `action` {callType,
 *   from, gas, input, to, value}; a CREATE / CREATE2 frame → `type: "create"|"create2"`,
 *   `action` {from, gas, init, value}; a SELFDESTRUCT frame → `type: "suicide"`, `action`
 *   {address, balance, refundAddress} (no result, no error);
 * - a failed frame carries `error` (the node's text) instead of `result`; otherwise `result` is
 *   {gasUsed, output} for a call, {address, code, gasUsed} for a create;
 * - `traceAddress` is the frame's child positions from the top call, `subtraces` the number of
 *   its direct children; frames in depth-first order (the stored index);
 * - quantities are hex (`0x0` where the tracer left one out, as Blockscout's parser defaults
 *   them), addresses and bytes lower-case, keys in Blockscout's (sorted) order;
 * - a frame of any other type (none from Geth's callTracer) is left out with its subtree, as
 *   Blockscout's parser drops an unknown type.
 */
import type * as t from 'io-ts';
import type { TraceFrameRecord } from '../domain/records.ts';
import type { RawTraceItem } from '../schema/contract.ts';

/** one item of raw-trace, as its schema types it */
export type RawTraceJson = t.OutputOf<typeof RawTraceItem>;
type CallItem = Extract<RawTraceJson, { type: 'call' }>;
type CreateItem = Extract<RawTraceJson, { type: 'create' | 'create2' }>;
type SuicideItem = Extract<RawTraceJson, { type: 'suicide' }>;

/** where a kept frame sits: its child positions and its number of kept children */
interface Place {
  readonly subtraces: number;
  readonly traceAddress: number[];
}

const quantity = (n: bigint | null): string => `0x${(n ?? 0n).toString(16)}`;

const CALL_TYPES = new Set(['call', 'callcode', 'delegatecall', 'staticcall']);

/** whether Blockscout's parser keeps a frame of this type (a call, a create, a self-destruct) */
const kept = (f: TraceFrameRecord): boolean => {
  const type = f.type.toLowerCase();
  return CALL_TYPES.has(type) || type === 'create' || type === 'create2' || type === 'selfdestruct';
};

function callItem(f: TraceFrameRecord, place: Place): CallItem {
  const callType = f.type.toLowerCase() as CallItem['action']['callType'];
  const action = { callType, from: f.from, gas: quantity(f.gas), input: f.input, ...(f.to === null ? {} : { to: f.to }), value: quantity(f.value) };
  const outcome = f.error !== null ? { error: f.error } : { result: { gasUsed: quantity(f.gasUsed), output: f.output ?? '0x' } };
  return { action, ...outcome, ...place, type: 'call' };
}

function createItem(f: TraceFrameRecord, place: Place): CreateItem {
  const type = f.type.toLowerCase() === 'create2' ? 'create2' : 'create';
  const action = { from: f.from, gas: quantity(f.gas), init: f.input, value: quantity(f.value) };
  const outcome = f.error !== null ? { error: f.error } : { result: { ...(f.to === null ? {} : { address: f.to }), code: f.output ?? '0x', gasUsed: quantity(f.gasUsed) } };
  return { action, ...outcome, ...place, type };
}

function suicideItem(f: TraceFrameRecord, parentTo: string | null, place: Place): SuicideItem {
  const refund = f.to ?? parentTo;
  return { action: { address: f.from, balance: quantity(f.value), ...(refund === null ? {} : { refundAddress: refund }) }, ...place, type: 'suicide' };
}

function itemOf(f: TraceFrameRecord, parentTo: string | null, place: Place): RawTraceJson {
  const type = f.type.toLowerCase();
  if (CALL_TYPES.has(type)) return callItem(f, place);
  if (type === 'selfdestruct') return suicideItem(f, parentTo, place);
  return createItem(f, place);
}

/** The Parity-style trace array of a transaction's frames (any order; rendered by index). */
export function renderRawTrace(frames: readonly TraceFrameRecord[]): RawTraceJson[] {
  const frameAt = new Map<string, TraceFrameRecord>();
  const order: string[] = [];
  const parentOf = (f: TraceFrameRecord): string => f.traceAddress.slice(0, -1).join('.');
  for (const f of [...frames].sort((a, b) => a.index - b.index)) {
    // below a frame that was left out (or without its parent), or of a type the parser drops
    if ((f.traceAddress.length > 0 && !frameAt.has(parentOf(f))) || !kept(f)) continue;
    const key = f.traceAddress.join('.');
    frameAt.set(key, f);
    order.push(key);
  }
  const children = new Map<string, number>();
  for (const key of order) {
    const f = frameAt.get(key);
    if (f !== undefined && f.traceAddress.length > 0) children.set(parentOf(f), (children.get(parentOf(f)) ?? 0) + 1);
  }
  return order.flatMap((key) => {
    const f = frameAt.get(key);
    if (f === undefined) return [];
    const parentTo = f.traceAddress.length === 0 ? null : (frameAt.get(parentOf(f))?.to ?? null);
    return [itemOf(f, parentTo, { subtraces: children.get(key) ?? 0, traceAddress: [...f.traceAddress] })];
  });
}
