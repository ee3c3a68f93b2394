/**
 * An account's `execute` / `executeBatch` (ERC-4337 accounts such as SimpleAccount, and any
 * contract with those methods): the transaction's input decoded, by the account's verified ABI
 * or the signature table, into the calls the account made. Then the account is the actor of the
 * other rules, and a call that no other rule describes is `Call {method} on {to_address}`.
 *
 * Shapes read (by parameter types, whatever the names):
 * `execute(address, uint256, bytes)`, `executeBatch((address, uint256, bytes)[])` (v0.7+),
 * `executeBatch(address[], uint256[], bytes[])` and `executeBatch(address[], bytes[])` (v0.6).
 */
import type { DecodedCall } from '../../decode/decoder.ts';
import type { Address, Hex } from '../../domain/records.ts';
import type { JsonValue } from '../../json.ts';
import type { SummaryCall, SummaryInput, SummaryItem, SummaryScope } from '../types.ts';
import { address, method, text } from '../types.ts';

type Raw = { readonly to: JsonValue | undefined; readonly value: JsonValue | undefined; readonly data: JsonValue | undefined };

const isAddress = (v: JsonValue | undefined): v is string => typeof v === 'string' && /^0x[0-9a-fA-F]{40}$/.test(v);
const isHex = (v: JsonValue | undefined): v is string => typeof v === 'string' && /^0x([0-9a-fA-F]{2})*$/.test(v);
const isUint = (v: JsonValue | undefined): v is string => typeof v === 'string' && /^\d+$/.test(v);
const list = (v: JsonValue | undefined): readonly JsonValue[] => (Array.isArray(v) ? (v as readonly JsonValue[]) : []);

function nameOf(d: DecodedCall): string {
  return d.method_call.slice(0, d.method_call.indexOf('('));
}

/** The raw calls of a decoded `execute` / `executeBatch`; null for any other method or shape. */
function rawCalls(d: DecodedCall): readonly Raw[] | null {
  const name = nameOf(d);
  const types = d.parameters.map((p) => p.type).join(',');
  const v = d.parameters.map((p) => p.value);
  if (name === 'execute' && types === 'address,uint256,bytes') return [{ to: v[0], value: v[1], data: v[2] }];
  if (name !== 'executeBatch') return null;
  if (types === 'tuple[]') return list(v[0]).map((c) => ({ to: list(c)[0], value: list(c)[1], data: list(c)[2] }));
  if (types === 'address[],uint256[],bytes[]') return list(v[0]).map((to, i) => ({ to, value: list(v[1])[i], data: list(v[2])[i] }));
  if (types === 'address[],bytes[]') return list(v[0]).map((to, i) => ({ to, value: '0', data: list(v[1])[i] }));
  return null;
}

/** The account's calls, when the transaction calls an account's `execute` / `executeBatch`. */
export function accountScope(input: SummaryInput): SummaryScope | null {
  const account = input.transaction.to;
  if (account === null || input.decodedInput === null) return null;
  const raws = rawCalls(input.decodedInput);
  if (raws === null) return null;
  const calls: SummaryCall[] = [];
  for (const r of raws) {
    // an empty v0.7 batch value array means no value (SimpleAccount's rule)
    const value = r.value === undefined ? '0' : r.value;
    if (!isAddress(r.to) || !isUint(value) || !isHex(r.data)) return null;
    const to = r.to.toLowerCase() as Address;
    const data = r.data.toLowerCase() as Hex;
    calls.push({ to, value: BigInt(value), input: data, decoded: data.length >= 10 ? (input.decodeCall?.(to, data) ?? null) : null });
  }
  return { actor: account, calls, viaAccount: true };
}

/** `Call {method} on {to_address}` for each call that carries data (the method's name, else its selector). */
export function accountCalls(scope: SummaryScope): SummaryItem[] {
  return scope.calls
    .filter((c) => c.input.length >= 10)
    .map((c) => ({
      template: '{action_type} {method} on {to_address}',
      variables: { action_type: text('Call'), method: method(c.decoded === null ? c.input.slice(0, 10) : nameOf(c.decoded)), to_address: address(c.to) },
    }));
}
