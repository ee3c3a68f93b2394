/**
 * Reading the dialect's parameters as Blockscout does: required ones named in the message,
 * addresses and hashes checked, paging (`page`, `offset`, `sort`) and block bounds
 * (`startblock`, `endblock`) read leniently (an out-of-range value is ignored).
 */
import type { Address, Hash } from '../domain/records.ts';
import type { BlockRange, Order } from '../ports.ts';
import type { EtherscanAnswer, EtherscanQuery } from './action.ts';
import { fail } from './action.ts';

export type Read<T> = { readonly value: T } | { readonly error: EtherscanAnswer };

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HASH = /^0x[0-9a-fA-F]{64}$/;

/** A parameter's value, blank treated as absent. */
export function param(query: EtherscanQuery, name: string): string | undefined {
  const v = query[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

export const isAddress = (s: string): boolean => ADDRESS.test(s);

export const requiredMessage = (name: string): string => `Query parameter '${name}' is required`;

/** A required address: missing → "Query parameter 'x' is required"; malformed → "Invalid x format". */
export function addressParam(query: EtherscanQuery, name = 'address'): Read<Address> {
  const v = param(query, name);
  if (v === undefined) return { error: fail(requiredMessage(name)) };
  if (!ADDRESS.test(v)) return { error: fail(`Invalid ${name} format`) };
  return { value: v.toLowerCase() as Address };
}

/** An optional address: absent → undefined; malformed → the error. */
export function optionalAddress(query: EtherscanQuery, name: string): Read<Address | undefined> {
  return param(query, name) === undefined ? { value: undefined } : addressParam(query, name);
}

/** A comma-separated list of at most `max` addresses (`account/balance`, `balancemulti`). */
export function addressList(query: EtherscanQuery, name = 'address', max = 20): Read<readonly Address[]> {
  const v = param(query, name);
  if (v === undefined) return { error: fail(requiredMessage(name)) };
  const parts = v.split(',').map((s) => s.trim());
  if (parts.length > max || parts.some((s) => !ADDRESS.test(s))) return { error: fail(`Invalid ${name} format`) };
  return { value: [...new Set(parts.map((s) => s.toLowerCase() as Address))] };
}

/** A required transaction hash (`txhash`). */
export function txHashParam(query: EtherscanQuery, name = 'txhash'): Read<Hash> {
  const v = param(query, name);
  if (v === undefined) return { error: fail(requiredMessage(name)) };
  if (!HASH.test(v)) return { error: fail(`Invalid ${name} format`) };
  return { value: v.toLowerCase() as Hash };
}

/** Blockscout's bound on block numbers in the dialect (a Postgres integer). */
export const MAX_BLOCK_PARAM = 2 ** 31 - 1;

/** A non-negative decimal integer ≤ `max`, else undefined. */
export function nonNegative(value: string | undefined, max = MAX_BLOCK_PARAM): number | undefined {
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  const n = Number(value);
  return n <= max ? n : undefined;
}

/** `startblock` / `endblock`: ignored unless a non-negative integer ≤ 2^31−1. */
export function blockRange(query: EtherscanQuery): BlockRange {
  const from = nonNegative(param(query, 'startblock'));
  const to = nonNegative(param(query, 'endblock'));
  return { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
}

/** `sort`: `asc` or `desc` (default desc, anything else ignored). */
export function sortParam(query: EtherscanQuery): Order {
  return param(query, 'sort')?.toLowerCase() === 'asc' ? 'asc' : 'desc';
}

/** Blockscout's result window: page × offset never beyond this. */
export const MAX_RESULT_WINDOW = 10_000;
export const RESULT_WINDOW_MESSAGE = `Result window is too large, PageNo x Offset size must be less than or equal to ${MAX_RESULT_WINDOW}`;

/** Which rows of an ordered list a request wants: skip `skip`, then `take` of them. */
export interface Window {
  readonly skip: number;
  readonly take: number;
}

/**
 * `page` (≥ 1, default 1) and `offset` (1..10000, default `defaultOffset`); values out of range
 * are ignored. page × offset (as used) beyond 10000 → Blockscout's "Result window is too large".
 */
export function windowParam(query: EtherscanQuery, defaultOffset = MAX_RESULT_WINDOW): Read<Window> {
  const p = nonNegative(param(query, 'page'), Number.MAX_SAFE_INTEGER);
  const o = nonNegative(param(query, 'offset'), MAX_RESULT_WINDOW);
  const page = p !== undefined && p >= 1 ? p : 1;
  const offset = o !== undefined && o >= 1 ? o : defaultOffset;
  if (page * offset > MAX_RESULT_WINDOW) return { error: fail(RESULT_WINDOW_MESSAGE) };
  return { value: { skip: (page - 1) * offset, take: offset } };
}
