/**
 * Decoded ABI values as Blockscout renders them (DecodingHelper.value_json): integers as decimal
 * strings, booleans as "true"/"false", addresses checksummed, bytes as 0x hex, arrays as JSON
 * arrays, tuples as arrays of their members' values (by position).
 */
import type { AbiParameter } from 'abitype';
import type { Hex } from '../domain/records.ts';
import type { JsonValue } from '../json.ts';
import { checksum } from '../render/format.ts';
import { address } from '../domain/hex.ts';

const components = (p: AbiParameter): readonly AbiParameter[] => ('components' in p ? p.components : []);

/** The value of one parameter; `type` may be an array type (`uint256[2][]`), whose elements are rendered with the inner type. */
export function renderParamValue(param: AbiParameter, v: unknown): JsonValue {
  const type = param.type;
  if (type.endsWith(']')) {
    const inner = { ...param, type: type.slice(0, type.lastIndexOf('[')) } as AbiParameter;
    return Array.isArray(v) ? v.map((x) => renderParamValue(inner, x)) : null;
  }
  if (type === 'tuple') {
    const members = components(param);
    return members.map((c, i) => {
      const x: unknown = Array.isArray(v) ? v[i] : v !== null && typeof v === 'object' ? (v as Readonly<Record<string, unknown>>)[c.name ?? ''] : undefined;
      return renderParamValue(c, x);
    });
  }
  return renderScalar(type, v);
}

/** A value by type name alone (no tuple components known). */
export function renderScalar(type: string, v: unknown): JsonValue {
  if (Array.isArray(v)) {
    const inner = type.endsWith(']') ? type.slice(0, type.lastIndexOf('[')) : type;
    return v.map((x) => renderScalar(inner, x));
  }
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return type === 'address' ? checksum(address(v.toLowerCase())) : v;
  if (typeof v === 'number') return String(v);
  if (v !== null && typeof v === 'object') return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
  return null;
}

/** `name(type name, …)`, with ` indexed` for events' indexed parameters; unnamed ones as `arg0`, `arg1`, … */
export function callSignature(name: string, params: readonly AbiParameter[], withIndexed: boolean): string {
  const parts = params.map((p, i) => {
    const indexed = withIndexed && 'indexed' in p && p.indexed === true ? ' indexed' : '';
    return `${p.type}${indexed} ${paramName(p, i)}`;
  });
  return `${name}(${parts.join(', ')})`;
}

export const paramName = (p: AbiParameter, i: number): string => (p.name !== undefined && p.name !== '' ? p.name : `arg${i}`);
