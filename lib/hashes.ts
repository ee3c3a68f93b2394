/**
 * The hash kinds of the public surface as distinct (branded) types: an `Address` is not a
 * `TransactionHash`, and neither is a `BlockHash`, though all three are `0x` hex strings. The
 * typed client (lib/client.ts) takes them where an endpoint's path or query names one, so a
 * transaction hash passed where an address belongs does not compile.
 *
 * A brand is a compile-time mark only (the value is the string itself): make one with a
 * constructor (`asAddress`, …: checks the format, throws a TypeError otherwise, returns the
 * lower-case form stores hold) or narrow with a guard (`isAddress`, …: the format only).
 * Transaction and block hashes share a format: which one a 32-byte hash is, is the caller's word.
 *
 * The records hold the same `Address`, and a `Hash` that both hash kinds are (lib/domain/hex.ts):
 * a checked value goes wherever a record's does; a record's hash becomes a `TransactionHash` or a
 * `BlockHash` by the caller's word (`asTransactionHash`, which also checks it).
 */

import type { Address, Hash } from './domain/hex.ts';

export type { Address } from './domain/hex.ts';

declare const hashKind: unique symbol;

/** A 32-byte transaction hash (0x and 64 hex digits): a records' `Hash` the caller says is a transaction's. */
export type TransactionHash = Hash & { readonly [hashKind]: 'TransactionHash' };
/** A 32-byte block hash (0x and 64 hex digits): a records' `Hash` the caller says is a block's. */
export type BlockHash = Hash & { readonly [hashKind]: 'BlockHash' };

const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;
const HASH_RE = /^0x[0-9a-fA-F]{64}$/;

export const isAddress = (value: unknown): value is Address => typeof value === 'string' && ADDRESS_RE.test(value);
export const isTransactionHash = (value: unknown): value is TransactionHash => typeof value === 'string' && HASH_RE.test(value);
export const isBlockHash = (value: unknown): value is BlockHash => typeof value === 'string' && HASH_RE.test(value);

function checked<T extends string>(value: string, is: (v: unknown) => v is T, what: string): T {
  if (!is(value)) throw new TypeError(`Not ${what}: ${JSON.stringify(value).slice(0, 80)}`);
  return value.toLowerCase() as T;
}

/** `s` as an Address (lower-case); a TypeError unless it is 0x and 40 hex digits (any case). */
export const asAddress = (s: string): Address => checked(s, isAddress, 'an address (0x and 40 hex digits)');
/** `s` as a TransactionHash (lower-case); a TypeError unless it is 0x and 64 hex digits (any case). */
export const asTransactionHash = (s: string): TransactionHash => checked(s, isTransactionHash, 'a transaction hash (0x and 64 hex digits)');
/** `s` as a BlockHash (lower-case); a TypeError unless it is 0x and 64 hex digits (any case). */
export const asBlockHash = (s: string): BlockHash => checked(s, isBlockHash, 'a block hash (0x and 64 hex digits)');
