/**
 * The hex kinds the records hold, as branded types: a compile-time mark only (the value is the
 * lower-case `0x` string itself). An `Address` and a `Hash` are each a `Hex`; neither is the
 * other, and a plain string is none of them. A value gets its kind where it is read — a request's
 * codec (`lib/hashes.ts` checks the format), a store's row, a node's answer — or where a constant
 * is declared, with the marks below; past that point the compiler keeps the kinds apart.
 *
 * This module imports nothing: the records, the codecs, the adapters and the tests build on it.
 */

declare const hexBrand: unique symbol;
declare const addressBrand: unique symbol;
declare const hashBrand: unique symbol;

/** `0x` and hex digits, lower-case: bytes (call data, code, a topic, a selector). */
export type Hex = `0x${string}` & { readonly [hexBrand]: true };
/** A 20-byte address, lower-case. */
export type Address = Hex & { readonly [addressBrand]: true };
/** A 32-byte hash, lower-case. */
export type Hash = Hex & { readonly [hashBrand]: true };

/**
 * The marks: `value` as the kind named, unchecked. For a value already in the records' form — a
 * constant, a row this library wrote, a node's field it has lower-cased — where checking again
 * would only cost; a value from outside goes through `lib/hashes.ts`'s checked constructors.
 */
export const hex = (value: string): Hex => value as Hex;
export const address = (value: string): Address => value as Address;
export const hash = (value: string): Hash => value as Hash;

/** The mark for a value that may be null (a nullable column, an optional field). */
export const addressOrNull = (value: string | null): Address | null => value as Address | null;
export const hashOrNull = (value: string | null): Hash | null => value as Hash | null;
export const hexOrNull = (value: string | null): Hex | null => value as Hex | null;

/** Empty bytes: no call data, no code. */
export const EMPTY_HEX = hex('0x');
/** The zero address: a mint's sender, a burn's receiver. */
export const ZERO_ADDRESS = address('0x0000000000000000000000000000000000000000');
/** Thirty-two zero bytes: an empty storage slot. */
export const ZERO_HASH = hash(`0x${'0'.repeat(64)}`);
/** No address (`0x`): it sorts below every address — a value-only cursor's bound within its value. */
export const BELOW_EVERY_ADDRESS = address('0x');
