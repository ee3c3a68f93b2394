/**
 * The value formats of the API as io-ts codecs with their JSON Schemas: hashes, integer
 * strings, timestamps, and the fields scoutkit always sends empty or null.
 */
import * as t from 'io-ts';
import { TOKEN_TYPES, TRANSACTION_KINDS } from '../domain/records.ts';
import type { Address, BlockHash, TransactionHash } from '../hashes.ts';
import type { JsonObject } from '../json.ts';
import type { JsonSchema } from '../openapi/jsonSchema.ts';
import { component, withSchema } from '../openapi/jsonSchema.ts';

/**
 * A string codec checked against `pattern` (when given), documented by `schema`. `A` names the
 * kind of string the pattern checks (a branded hash kind of lib/hashes.ts: a type only).
 */
function text<A extends string = string>(name: string, schema: JsonSchema, pattern?: RegExp) {
  const is = (u: unknown): u is A => typeof u === 'string' && (pattern === undefined || pattern.test(u));
  const codec = new t.Type<A, string, unknown>(
    name,
    is,
    (u, c) => (is(u) ? t.success(u) : t.failure(u, c)),
    t.identity,
  );
  return component(name, withSchema(codec, { type: 'string', ...(pattern === undefined ? {} : { pattern: pattern.source }), ...schema }));
}

export const AddressHash = text<Address>('AddressHash', { description: 'an address, EIP-55 checksummed' }, /^0x([A-Fa-f0-9]{40})$/);
export const FullHash = text('FullHash', { description: 'a 32-byte hash, lower-case' }, /^0x([A-Fa-f0-9]{64})$/);
/**
 * FullHash where the field names a transaction or a block: the same codec (one component of
 * the document), typed as that kind so a typed answer's hash goes back where that kind belongs.
 */
export const TransactionHashCodec = FullHash as unknown as t.Type<TransactionHash, string, unknown> & typeof FullHash;
export const BlockHashCodec = FullHash as unknown as t.Type<BlockHash, string, unknown> & typeof FullHash;
export const HexString = text('HexString', { description: 'bytes as 0x-prefixed hex' }, /^0x([A-Fa-f0-9]*)$/);
export const IntegerString = text('IntegerString', { description: 'an integer as a decimal string (exact beyond 2^53)' }, /^-?([1-9][0-9]*|0)$/);
export const Timestamp = text('Timestamp', { format: 'date-time', description: 'ISO 8601 UTC, e.g. 2024-03-21T10:15:23.000000Z' });
export const DateString = text('DateString', { format: 'date', description: 'a UTC day, YYYY-MM-DD' }, /^\d{4}-\d{2}-\d{2}$/);

/** A JSON integer (block numbers, indexes, counts; bigints are written as exact integers). */
export const Integer = withSchema(new t.Type<number, number, unknown>('Integer', t.number.is, t.number.validate, t.identity), {
  type: 'integer',
});

const isExactInteger = (u: unknown): u is number | bigint => typeof u === 'bigint' || t.number.is(u);
/**
 * Integer where a sum may pass 2^53 (a window's total gas): the renderer hands a bigint beyond
 * it, written exactly; the same JSON Schema, so the document does not change. Read back from
 * JSON text it is a number.
 */
export const ExactInteger = withSchema(
  new t.Type<number | bigint, number | bigint, unknown>('Integer', isExactInteger, (u, c) => (isExactInteger(u) ? t.success(u) : t.failure(u, c)), t.identity),
  { type: 'integer' },
);

export const nullable = <C extends t.Mixed>(codec: C) => t.union([codec, t.null]);

export const TokenTypeCodec = component('TokenType', t.keyof(Object.fromEntries(TOKEN_TYPES.map((k) => [k, null])) as Record<(typeof TOKEN_TYPES)[number], null>));
export const TransactionKindCodec = t.keyof(
  Object.fromEntries(TRANSACTION_KINDS.map((k) => [k, null])) as Record<(typeof TRANSACTION_KINDS)[number], null>,
);

/** A list scoutkit always sends empty (the data behind it is not indexed). */
export function emptyList(why: string) {
  return withSchema(new t.Type<readonly never[], readonly never[], unknown>('EmptyList', (u): u is readonly never[] => Array.isArray(u) && u.length === 0, (u, c) => (Array.isArray(u) && u.length === 0 ? t.success(u as never[]) : t.failure(u, c)), t.identity), {
    type: 'array',
    maxItems: 0,
    items: {},
    description: `always empty: ${why}`,
  });
}

/** A free-form JSON object (token metadata as fetched). */
export const AnyObject = withSchema(
  new t.Type<JsonObject, JsonObject, unknown>('AnyObject', (u): u is JsonObject => t.UnknownRecord.is(u), (u, c) => (t.UnknownRecord.is(u) ? t.success(u as JsonObject) : t.failure(u, c)), t.identity),
  { type: 'object' },
);
