/**
 * What a search query is (Blockscout's classification, `q` trimmed first): an address hash, a
 * 32-byte hash, a block number (plus a text search when it has 3 characters or more), a text
 * of 3 characters or more, or nothing (no letter or digit at all, or too short).
 */
import type { Address, Hash } from '../domain/records.ts';

export type SearchQuery =
  | { readonly kind: 'none' }
  | { readonly kind: 'address'; readonly address: Address }
  | { readonly kind: 'hash'; readonly hash: Hash }
  /** `number` null: beyond the block numbers a store holds (no block matches); `text` null: too short */
  | { readonly kind: 'number'; readonly number: number | null; readonly text: string | null }
  | { readonly kind: 'text'; readonly text: string };

const ADDRESS_RE = /^0x[0-9a-f]{40}$/i;
const HASH_RE = /^0x[0-9a-f]{64}$/i;
const NUMBER_RE = /^[0-9]+$/;
const TEXT_MIN = 3;

export function classify(raw: string | undefined): SearchQuery {
  const q = (raw ?? '').trim();
  if (!/[A-Za-z0-9]/.test(q)) return { kind: 'none' };
  if (ADDRESS_RE.test(q)) return { kind: 'address', address: q.toLowerCase() as Address };
  if (HASH_RE.test(q)) return { kind: 'hash', hash: q.toLowerCase() as Hash };
  if (NUMBER_RE.test(q)) {
    const n = BigInt(q);
    return { kind: 'number', number: n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : null, text: q.length >= TEXT_MIN ? q : null };
  }
  return q.length >= TEXT_MIN ? { kind: 'text', text: q } : { kind: 'none' };
}

/** The text part of a query, if it has one. */
export function textOf(s: SearchQuery): string | null {
  return s.kind === 'text' ? s.text : s.kind === 'number' ? s.text : null;
}

export type RedirectTarget =
  | { readonly kind: 'address'; readonly address: Address }
  | { readonly kind: 'hash'; readonly hash: Hash }
  | { readonly kind: 'number'; readonly number: number }
  | { readonly kind: 'none' };

/** check-redirect's classification: hashes with or without `0x`, any block number. */
export function redirectTarget(raw: string | undefined): RedirectTarget {
  const q = (raw ?? '').trim();
  const hex = q.startsWith('0x') || q.startsWith('0X') ? q.slice(2) : q;
  if (/^[0-9a-f]{40}$/i.test(hex)) return { kind: 'address', address: `0x${hex.toLowerCase()}` as Address };
  if (/^[0-9a-f]{64}$/i.test(hex)) return { kind: 'hash', hash: `0x${hex.toLowerCase()}` as Hash };
  if (NUMBER_RE.test(q) && BigInt(q) <= BigInt(Number.MAX_SAFE_INTEGER)) return { kind: 'number', number: Number(q) };
  return { kind: 'none' };
}
