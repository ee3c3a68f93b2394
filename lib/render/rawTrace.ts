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
import type { TraceFrameRecord } from '../domain/records.ts';
import type { JsonObject } from '../json.ts';

const quantity = (n: bigint | null): string => `0x${(n ?? 0n).toString(16)}`;

const CALL_TYPES = new Set(['call', 'callcode', 'delegatecall', 'staticcall']);

/** The action of a frame, with its `type`; null for a type Blockscout's parser drops. */
function actionOf(f: TraceFrameRecord, parentTo: string | null): { readonly type: string; readonly action: JsonObject } | null {
  const type = f.type.toLowerCase();
  if (CALL_TYPES.has(type)) {
    return {
      type: 'call',
      action: {
        callType: type,
        from: f.from,
        gas: quantity(f.gas),
        input: f.input,
        ...(f.to === null ? {} : { to: f.to }),
        value: quantity(f.value),
      },
    };
  }
  if (type === 'create' || type === 'create2') {
    return { type, action: { from: f.from, gas: quantity(f.gas), init: f.input, value: quantity(f.value) } };
  }
  if (type === 'selfdestruct') {
    const refund = f.to ?? parentTo;
    return { type: 'suicide', action: { address: f.from, balance: quantity(f.value), ...(refund === null ? {} : { refundAddress: refund }) } };
  }
  return null;
}

function outcome(f: TraceFrameRecord, type: string): JsonObject {
  if (type === 'suicide') return {};
  if (f.error !== null) return { error: f.error };
  if (type === 'call') return { result: { gasUsed: quantity(f.gasUsed), output: f.output ?? '0x' } };
  return { result: { ...(f.to === null ? {} : { address: f.to }), code: f.output ?? '0x', gasUsed: quantity(f.gasUsed) } };
}

/** The Parity-style trace array of a transaction's frames (any order; rendered by index). */
export function renderRawTrace(frames: readonly TraceFrameRecord[]): JsonObject[] {
  const kept = new Map<string, { readonly frame: TraceFrameRecord; readonly type: string; readonly action: JsonObject }>();
  const order: string[] = [];
  for (const f of [...frames].sort((a, b) => a.index - b.index)) {
    const key = f.traceAddress.join('.');
    const parentKey = f.traceAddress.slice(0, -1).join('.');
    const parent = f.traceAddress.length === 0 ? null : kept.get(parentKey);
    if (parent === undefined) continue; // below a frame that was left out (or without its parent)
    const shaped = actionOf(f, parent === null ? null : parent.frame.to);
    if (shaped === null) continue;
    kept.set(key, { frame: f, ...shaped });
    order.push(key);
  }
  const children = new Map<string, number>();
  for (const key of order) {
    const entry = kept.get(key);
    if (entry === undefined || entry.frame.traceAddress.length === 0) continue;
    const parentKey = entry.frame.traceAddress.slice(0, -1).join('.');
    children.set(parentKey, (children.get(parentKey) ?? 0) + 1);
  }
  return order.flatMap((key) => {
    const entry = kept.get(key);
    if (entry === undefined) return [];
    return [
      {
        action: entry.action,
        ...outcome(entry.frame, entry.type),
        subtraces: children.get(key) ?? 0,
        traceAddress: [...entry.frame.traceAddress],
        type: entry.type,
      },
    ];
  });
}
