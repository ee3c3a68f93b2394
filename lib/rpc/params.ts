/**
 * Decoders of JSON-RPC parameters: quantities, data, addresses, hashes, block tags. Each returns
 * the value or a message for a -32602 error.
 */
import type { Address, Hash, Hex } from '../domain/records.ts';
import { hex } from '../domain/hex.ts';

export type Decoded<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

const ok = <T>(value: T): Decoded<T> => ({ ok: true, value });
const bad = (message: string): Decoded<never> => ({ ok: false, message });

const QUANTITY = /^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HASH = /^0x[0-9a-fA-F]{64}$/;

/** A block as a request names it: a number, a tag, or a hash (EIP-1898). */
export type BlockSpec =
  | { readonly kind: 'number'; readonly number: number }
  | { readonly kind: 'tag'; readonly tag: 'latest' | 'earliest' | 'pending' | 'safe' | 'finalized' }
  | { readonly kind: 'hash'; readonly hash: Hash };

const TAGS = ['latest', 'earliest', 'pending', 'safe', 'finalized'] as const;

export function quantity(value: unknown, name: string): Decoded<bigint> {
  return typeof value === 'string' && QUANTITY.test(value) ? ok(BigInt(value)) : bad(`invalid ${name}: expected a hex quantity`);
}

export function address(value: unknown, name = 'address'): Decoded<Address> {
  return typeof value === 'string' && ADDRESS.test(value) ? ok(value.toLowerCase() as Address) : bad(`invalid ${name}: expected a 20-byte hex address`);
}

export function hash(value: unknown, name = 'hash'): Decoded<Hash> {
  return typeof value === 'string' && HASH.test(value) ? ok(value.toLowerCase() as Hash) : bad(`invalid ${name}: expected a 32-byte hex hash`);
}

export function bool(value: unknown, name: string): Decoded<boolean> {
  return typeof value === 'boolean' ? ok(value) : bad(`invalid ${name}: expected a boolean`);
}

/** A block number or tag; absent = latest. Also the EIP-1898 object `{blockNumber}` / `{blockHash}`. */
export function blockSpec(value: unknown, name = 'block'): Decoded<BlockSpec> {
  if (value === undefined || value === null) return ok({ kind: 'tag', tag: 'latest' });
  if (typeof value === 'string') {
    if ((TAGS as readonly string[]).includes(value)) return ok({ kind: 'tag', tag: value as (typeof TAGS)[number] });
    const n = quantity(value, name);
    if (!n.ok) return bad(`invalid ${name}: expected a hex block number or one of ${TAGS.join(', ')}`);
    return n.value > BigInt(Number.MAX_SAFE_INTEGER) ? bad(`invalid ${name}: block number too large`) : ok({ kind: 'number', number: Number(n.value) });
  }
  if (typeof value === 'object' && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    if (o.blockHash !== undefined) {
      const h = hash(o.blockHash, 'blockHash');
      return h.ok ? ok({ kind: 'hash', hash: h.value }) : h;
    }
    if (o.blockNumber !== undefined) return blockSpec(o.blockNumber, name);
  }
  return bad(`invalid ${name}: expected a hex block number or one of ${TAGS.join(', ')}`);
}

/** Topics of a log filter: per position null (any), one topic, or a list (any of them). */
export type TopicFilter = readonly (readonly Hex[] | null)[];

export function topics(value: unknown): Decoded<TopicFilter> {
  if (value === undefined || value === null) return ok([]);
  if (!Array.isArray(value) || value.length > 4) return bad('invalid topics: expected an array of at most 4 entries');
  const out: (readonly Hex[] | null)[] = [];
  for (const t of value as unknown[]) {
    if (t === null) out.push(null);
    else if (typeof t === 'string') {
      const h = hash(t, 'topic');
      if (!h.ok) return h;
      out.push([h.value]);
    } else if (Array.isArray(t)) {
      const alts: Hex[] = [];
      for (const x of t as unknown[]) {
        const h = hash(x, 'topic');
        if (!h.ok) return h;
        alts.push(h.value);
      }
      out.push(alts.length === 0 ? null : alts);
    } else return bad('invalid topics: each entry is null, a topic or a list of topics');
  }
  return ok(out);
}

export const hexQuantity = (n: number | bigint): Hex => hex(`0x${n.toString(16)}`);
