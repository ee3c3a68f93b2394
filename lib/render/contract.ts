/** Stored contract code and trace frames → API JSON (the unverified smart-contract shape, callTracer trees). */
import type { ContractCodeRecord, TraceFrameRecord } from '../domain/records.ts';
import type { JsonObject } from '../json.ts';
import { renderAddress } from './address.ts';
import type { RenderContext } from './context.ts';

const quantity = (n: bigint): string => `0x${n.toString(16)}`;

/**
 * The callTracer tree of a transaction, rebuilt from its stored frames (index ASC): every field
 * as the tracer reported it, absent ones left out, children under `calls` in order.
 */
export function renderCallTrace(frames: readonly TraceFrameRecord[]): JsonObject | null {
  const byAddress = new Map<string, JsonObject & { calls?: JsonObject[] }>();
  let top: JsonObject | null = null;
  for (const f of frames) {
    const node: JsonObject & { calls?: JsonObject[] } = {
      from: f.from,
      ...(f.gas === null ? {} : { gas: quantity(f.gas) }),
      ...(f.gasUsed === null ? {} : { gasUsed: quantity(f.gasUsed) }),
      ...(f.to === null ? {} : { to: f.to }),
      input: f.input,
      ...(f.output === null ? {} : { output: f.output }),
      ...(f.error === null ? {} : { error: f.error }),
      ...(f.revertReason === null ? {} : { revertReason: f.revertReason }),
      ...(f.value === null ? {} : { value: quantity(f.value) }),
      type: f.type,
    };
    byAddress.set(f.traceAddress.join('.'), node);
    if (f.traceAddress.length === 0) {
      top = node;
      continue;
    }
    const parent = byAddress.get(f.traceAddress.slice(0, -1).join('.'));
    if (parent === undefined) continue; // a frame without its parent: not rendered
    if (parent.calls === undefined) parent.calls = [];
    parent.calls.push(node);
  }
  return top;
}

/**
 * The unverified smart-contract body (Blockscout's keys for a contract without a verified twin,
 * plus `is_verified: false`): a contract with no code left that an internal frame created
 * self-destructed; otherwise its code as the indexer read it at creation.
 */
export function renderSmartContract(c: ContractCodeRecord, createdByTransaction: boolean): JsonObject {
  const selfdestructed = c.deployedBytecode === '0x' && !createdByTransaction;
  return {
    proxy_type: null,
    implementations: [],
    conflicting_implementations: [],
    deployed_bytecode: selfdestructed ? null : c.deployedBytecode,
    creation_bytecode: c.creationBytecode,
    creation_status: selfdestructed ? 'selfdestructed' : 'success',
    is_verified: false,
  };
}

export function renderSmartContractItem(c: ContractCodeRecord, ctx: Pick<RenderContext, 'addresses'>): JsonObject {
  return {
    address: renderAddress(c.address, ctx),
    compiler_version: null,
    optimization_enabled: null,
    language: null,
    verified_at: null,
    has_constructor_args: null,
    license_type: null,
    certified: false,
    reputation: 'ok',
    coin_balance: null,
    transactions_count: null,
    market_cap: null,
  };
}
