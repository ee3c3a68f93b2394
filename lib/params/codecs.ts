/**
 * io-ts codecs for path and query parameters. Each decodes a raw query-string value and, on
 * failure, reports Blockscout's exact 422 `detail` messages (one io-ts error per message).
 */
import * as t from 'io-ts';
import type { Described, JsonSchema } from '../openapi/jsonSchema.ts';
import { withSchema } from '../openapi/jsonSchema.ts';
import type { Address, Hash, Hex, NftTokenType, TokenType, TransactionKind } from '../domain/records.ts';
import { NFT_TOKEN_TYPES, TOKEN_TYPES } from '../domain/records.ts';
import type { Address as AddressInput, BlockHash, TransactionHash } from '../hashes.ts';
import { hex } from '../domain/hex.ts';

/**
 * A parameter codec: unknown (a string from the URL) → A, with the JSON Schema of what it
 * accepts. `In` is what the typed client (lib/client.ts) takes for it before it writes the
 * value as a string: a type only (`_In` is never set, like io-ts's own `_A`).
 */
export type ParamCodec<A, In = A> = t.Type<A, string, unknown> & Described & { readonly _In?: In };

/** An integer the typed client takes: exact as a bigint or a decimal string, or a safe number. */
export type IntegerInput = bigint | number | string;

/** A parse failure carrying Blockscout's detail messages, in order. */
class Fail {
  constructor(readonly messages: readonly string[]) {}
}
const fail = (...messages: string[]): Fail => new Fail(messages);

function codec<A, In = A>(name: string, parse: (s: string) => A | Fail, show: (a: A) => string, schema: JsonSchema): ParamCodec<A, In> {
  const type = new t.Type<A, string, unknown>(
    name,
    (_u): _u is A => false,
    (u, c) => {
      if (typeof u !== 'string') return t.failure(u, c, `Invalid string. Got: ${typeof u}`);
      const r = parse(u);
      if (r instanceof Fail) {
        return t.failures(r.messages.map((message) => ({ value: u, context: c, message })));
      }
      return t.success(r);
    },
    show,
  );
  return withSchema(type, schema);
}

export const ADDRESS_HASH_FORMAT = 'Invalid format. Expected ~r/^0x([A-Fa-f0-9]{40})$/';
export const FULL_HASH_FORMAT = 'Invalid format. Expected ~r/^0x([A-Fa-f0-9]{64})$/';
export const INTEGER_STRING_FORMAT = 'Invalid format. Expected ~r/^-?([1-9][0-9]*|0)$/';

const ADDRESS_RE = /^0x[A-Fa-f0-9]{40}$/;
const FULL_HASH_RE = /^0x[A-Fa-f0-9]{64}$/;
const INTEGER_STRING_RE = /^-?([1-9][0-9]*|0)$/;
const INTEGER_RE = /^[+-]?\d+$/;
const FLOAT_STRING_RE = /^([1-9][0-9]*|0)(\.[0-9]+)?$/;

/** AddressHash in any case → lower-case. */
export const addressHash: ParamCodec<Address, AddressInput> = codec<Address, AddressInput>(
  'AddressHash',
  (s) => (ADDRESS_RE.test(s) ? (s.toLowerCase() as Address) : fail(ADDRESS_HASH_FORMAT)),
  (a) => a,
  { type: 'string', pattern: ADDRESS_RE.source },
);

/** FullHash in any case → lower-case. Every endpoint that declares one names a transaction by it. */
export const fullHash: ParamCodec<Hash, TransactionHash> = codec<Hash, TransactionHash>(
  'FullHash',
  (s) => (FULL_HASH_RE.test(s) ? (s.toLowerCase() as Hash) : fail(FULL_HASH_FORMAT)),
  (h) => h,
  { type: 'string', pattern: FULL_HASH_RE.source },
);

/** An integer that fits a JS number exactly (block numbers, indexes, sizes). */
export function integer(bounds: { readonly min?: number; readonly max?: number } = {}): ParamCodec<number> {
  return codec(
    'integer',
    (s) => {
      if (!INTEGER_RE.test(s)) return fail('Invalid integer. Got: string');
      const big = BigInt(s);
      if (bounds.min !== undefined && big < BigInt(bounds.min)) {
        return fail(`${big} is smaller than inclusive minimum ${bounds.min}`);
      }
      const max = bounds.max ?? Number.MAX_SAFE_INTEGER;
      if (big > BigInt(max)) return fail(`${big} is larger than inclusive maximum ${max}`);
      if (big < BigInt(Number.MIN_SAFE_INTEGER)) {
        return fail(`${big} is smaller than inclusive minimum ${Number.MIN_SAFE_INTEGER}`);
      }
      return Number(big);
    },
    String,
    {
      type: 'integer',
      ...(bounds.min === undefined ? {} : { minimum: bounds.min }),
      ...(bounds.max === undefined ? {} : { maximum: bounds.max }),
    },
  );
}

/** An integer of any size ≥ `min`, exact → bigint (gas totals: a JSON integer beyond 2^53). */
export function bigInteger(bounds: { readonly min: number }): ParamCodec<bigint, IntegerInput> {
  return codec<bigint, IntegerInput>(
    'integer',
    (s) => {
      if (!INTEGER_RE.test(s)) return fail('Invalid integer. Got: string');
      const big = BigInt(s);
      return big < BigInt(bounds.min) ? fail(`${big} is smaller than inclusive minimum ${bounds.min}`) : big;
    },
    String,
    { type: 'integer', minimum: bounds.min },
  );
}

/** IntegerString (no leading zeros), exact → bigint. */
export const integerString: ParamCodec<bigint, IntegerInput> = codec<bigint, IntegerInput>(
  'IntegerString',
  (s) => (INTEGER_STRING_RE.test(s) ? BigInt(s) : fail(INTEGER_STRING_FORMAT)),
  String,
  { type: 'string', pattern: INTEGER_STRING_RE.source },
);

/** IntegerString | "" | "null" → bigint | null. */
export const integerStringOrNull: ParamCodec<bigint | null, IntegerInput | null> = codec<bigint | null, IntegerInput | null>(
  'IntegerStringOrEmptyOrNullLiteral',
  (s) => {
    if (s === '' || s === 'null') return null;
    return INTEGER_STRING_RE.test(s)
      ? BigInt(s)
      : fail(
          'Failed to cast value using any of: Schema(title: "NullString", type: :string), Schema(title: "EmptyString", type: :string), Schema(title: "IntegerString", type: :string)',
          INTEGER_STRING_FORMAT,
          'String length is larger than maxLength: 0',
          'Invalid value for enum',
        );
  },
  (v) => (v === null ? 'null' : String(v)),
  { type: 'string', pattern: `^(${INTEGER_STRING_RE.source.slice(1, -1)}|null|)$`, description: 'an integer string; empty or `null`: none' },
);

/** FloatString | "" | "null" → decimal string | null. */
export const floatStringOrNull: ParamCodec<string | null, string | number | null> = codec<string | null, string | number | null>(
  'FloatStringOrEmptyOrNullLiteral',
  (s) => {
    if (s === '' || s === 'null') return null;
    return FLOAT_STRING_RE.test(s)
      ? s
      : fail(
          'Failed to cast value using any of: Schema(title: "NullString", type: :string), Schema(title: "EmptyString", type: :string), Schema(title: "FloatString", type: :string)',
          'Invalid format. Expected ~r/^([1-9][0-9]*|0)(\\.[0-9]+)?$/',
          'String length is larger than maxLength: 0',
          'Invalid value for enum',
        );
  },
  (v) => v ?? 'null',
  { type: 'string', pattern: `^(${FLOAT_STRING_RE.source.slice(1, -1)}|null|)$`, description: 'a decimal string; empty or `null`: none' },
);

export function enumOf<const V extends string>(values: readonly V[]): ParamCodec<V> {
  return codec(
    'enum',
    (s) => ((values as readonly string[]).includes(s) ? (s as V) : fail('Invalid value for enum')),
    (v) => v,
    { type: 'string', enum: [...values] },
  );
}

export const anyString: ParamCodec<string> = codec('string', (s) => s, (s) => s, { type: 'string' });

/**
 * A parameter the official documents declare as an object (Blockscout's paging objects, sent
 * as `name[key]=…`): the bare name is accepted with any value and not used. Keys an endpoint
 * reads are declared as parameters of their own, `name[key]`; the OpenAPI document folds
 * them into this object (lib/openapi/document.ts).
 */
export const ignoredObject: ParamCodec<string> = codec('object', (s) => s, (s) => s, {
  type: 'object',
  description: 'paging keys sent as `name[key]=…`; keys scoutkit does not read are accepted and ignored',
});

export const boolean: ParamCodec<boolean> = codec(
  'boolean',
  (s) => (s === 'true' ? true : s === 'false' ? false : fail('Invalid boolean. Got: string')),
  String,
  { type: 'boolean' },
);

/** RFC 3339 date-time → unix ms (the typed client takes the string or a Date). */
export const dateTime: ParamCodec<number, string | Date> = codec<number, string | Date>(
  'date-time',
  (s) => {
    const ok = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(s);
    const ms = ok ? Date.parse(s.replace(' ', 'T')) : Number.NaN;
    return Number.isNaN(ms) ? fail('Invalid format. Expected :"date-time"') : ms;
  },
  (ms) => new Date(ms).toISOString(),
  { type: 'string', format: 'date-time' },
);

const TOKEN_TYPE_ALT = TOKEN_TYPES.join('|');
const TOKEN_TYPE_LIST_RE = new RegExp(`^\\[?(${TOKEN_TYPE_ALT})(,(${TOKEN_TYPE_ALT}))*\\]?$`, 'i');

/**
 * The token `type` filter: "" or a comma list of token types, case-insensitive, optionally in
 * one pair of brackets. Returns the recognised types (deduplicated), empty = no filter.
 * Like Blockscout, brackets are stripped only when the value starts with `[`, so `ERC-20]`
 * leaves a label that is not recognised (no filter).
 */
export const tokenTypeList: ParamCodec<readonly TokenType[], TokenType | readonly TokenType[]> = codec<readonly TokenType[], TokenType | readonly TokenType[]>(
  'TokenTypeList',
  (s) => {
    if (s === '') return [];
    if (!TOKEN_TYPE_LIST_RE.test(s)) {
      return fail(
        'Failed to cast value using any of: Schema(type: :string), Schema(title: "EmptyString", type: :string)',
        'String length is larger than maxLength: 0',
        `Invalid format. Expected ~r/^\\[?(${TOKEN_TYPE_ALT})(,(${TOKEN_TYPE_ALT}))*\\]?$/i`,
      );
    }
    let v = s.toUpperCase();
    if (v.startsWith('[')) v = v.slice(1).replace(/\]$/, '');
    const labels = v.split(',');
    return TOKEN_TYPES.filter((type) => labels.includes(type));
  },
  (types) => types.join(','),
  {
    type: 'string',
    description: `a comma list of token types (${TOKEN_TYPES.join(', ')}), case-insensitive, optionally in brackets; empty: every type`,
  },
);

/** NFT types effective for NFT endpoints: other listed types dropped; none left = all NFT types. */
export function effectiveNftTypes(types: readonly TokenType[] | undefined): readonly NftTokenType[] {
  const nft = NFT_TOKEN_TYPES.filter((type) => types?.includes(type));
  return nft.length > 0 ? nft : NFT_TOKEN_TYPES;
}

export const TRANSACTION_TYPE_FILTER_VALUES = [
  'token_transfer',
  'contract_creation',
  'contract_call',
  'coin_transfer',
  'token_creation',
  'blob_transaction',
] as const satisfies readonly TransactionKind[];

const TX_TYPE_ALT = TRANSACTION_TYPE_FILTER_VALUES.join('|');
const TX_TYPE_LIST_RE = new RegExp(`^\\[?(${TX_TYPE_ALT})(,(${TX_TYPE_ALT}))*\\]?$`, 'i');

/** `/transactions?type=`: comma list of transaction kinds, optionally bracketed, case-insensitive. */
export type TransactionKindFilter = (typeof TRANSACTION_TYPE_FILTER_VALUES)[number];
export const transactionKindList: ParamCodec<readonly TransactionKind[], TransactionKindFilter | readonly TransactionKindFilter[]> = codec<
  readonly TransactionKind[],
  TransactionKindFilter | readonly TransactionKindFilter[]
>(
  'TransactionTypeList',
  (s) => {
    if (s === '') return [];
    if (!TX_TYPE_LIST_RE.test(s)) {
      return fail(`Invalid format. Expected ~r/^\\[?(${TX_TYPE_ALT})(,(${TX_TYPE_ALT}))*\\]?$/i`);
    }
    const labels = s.toLowerCase().replace(/^\[/, '').replace(/\]$/, '').split(',');
    return TRANSACTION_TYPE_FILTER_VALUES.filter((k) => labels.includes(k));
  },
  (kinds) => kinds.join(','),
  {
    type: 'string',
    description: `a comma list of transaction kinds (${TRANSACTION_TYPE_FILTER_VALUES.join(', ')}), case-insensitive, optionally in brackets; any of them matches`,
  },
);

/** Well-known method names accepted by the `method` filter, with their selectors. */
export const METHOD_SELECTORS: Readonly<Record<string, Hex>> = {
  approve: hex('0x095ea7b3'),
  transfer: hex('0xa9059cbb'),
  multicall: hex('0x5ae401dc'),
  mint: hex('0x40c10f19'),
  commit: hex('0xf14fcbc8'),
};

const METHOD_ITEM = `(0x)?[0-9a-f]{8}|${Object.keys(METHOD_SELECTORS).join('|')}`;
const METHOD_LIST_RE = new RegExp(`^\\[?(${METHOD_ITEM})(,(${METHOD_ITEM}))*\\]?$`, 'i');

/** `/transactions?method=`: comma list of 4-byte selectors (0x optional) or known names → selectors. */
export const methodList: ParamCodec<readonly Hex[], string | readonly string[]> = codec<readonly Hex[], string | readonly string[]>(
  'MethodList',
  (s) => {
    if (s === '') return [];
    if (!METHOD_LIST_RE.test(s)) return fail(`Invalid format. Expected ~r/^\\[?(${METHOD_ITEM})(,(${METHOD_ITEM}))*\\]?$/i`);
    const items = s.toLowerCase().replace(/^\[/, '').replace(/\]$/, '').split(',');
    const ids = items.map((item) => METHOD_SELECTORS[item] ?? ((item.startsWith('0x') ? item : `0x${item}`) as Hex));
    return [...new Set(ids)];
  },
  (ids) => ids.join(','),
  {
    type: 'string',
    description: `a comma list of 4-byte method selectors (0x optional) or the names ${Object.keys(METHOD_SELECTORS).join(', ')}; any of them matches`,
  },
);

/** `/blocks/{block_hash_or_number_param}`: non-negative integer or full hash (anyOf). */
export type BlockRefParam = { readonly number: number } | { readonly hash: Hash };
export const blockHashOrNumber: ParamCodec<BlockRefParam, BlockHash | number> = codec<BlockRefParam, BlockHash | number>(
  'BlockHashOrNumber',
  (s) => {
    if (FULL_HASH_RE.test(s)) return { hash: s.toLowerCase() as Hash };
    if (/^\d+$/.test(s)) {
      const big = BigInt(s);
      if (big <= BigInt(Number.MAX_SAFE_INTEGER)) return { number: Number(big) };
      return fail(
        'Failed to cast value using any of: Schema(title: "FullHash", type: :string), Schema(type: :integer)',
        `${big} is larger than inclusive maximum ${Number.MAX_SAFE_INTEGER}`,
        FULL_HASH_FORMAT,
      );
    }
    const intMessage = INTEGER_RE.test(s) ? `${BigInt(s)} is smaller than inclusive minimum 0` : 'Invalid integer. Got: string';
    return fail(
      'Failed to cast value using any of: Schema(title: "FullHash", type: :string), Schema(type: :integer)',
      intMessage,
      FULL_HASH_FORMAT,
    );
  },
  (ref) => ('hash' in ref ? ref.hash : String(ref.number)),
  { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string', pattern: FULL_HASH_RE.source }] },
);

/**
 * integer | "" | "null" (anyOf [integer, EmptyString, NullString]) → number | null. Blockscout's
 * anyOf failure: the schemas in reverse order, then each alternative's error in order.
 */
export const integerOrNull: ParamCodec<number | null> = codec<number | null>(
  'IntegerOrEmptyOrNullLiteral',
  (s) => {
    if (s === '' || s === 'null') return null;
    if (INTEGER_RE.test(s)) {
      const big = BigInt(s);
      if (big <= BigInt(Number.MAX_SAFE_INTEGER) && big >= BigInt(Number.MIN_SAFE_INTEGER)) return Number(big);
    }
    const intMessage = !INTEGER_RE.test(s)
      ? 'Invalid integer. Got: string'
      : BigInt(s) > 0n
        ? `${BigInt(s)} is larger than inclusive maximum ${Number.MAX_SAFE_INTEGER}`
        : `${BigInt(s)} is smaller than inclusive minimum ${Number.MIN_SAFE_INTEGER}`;
    return fail(
      'Failed to cast value using any of: Schema(title: "NullString", type: :string), Schema(title: "EmptyString", type: :string), Schema(type: :integer)',
      intMessage,
      'String length is larger than maxLength: 0',
      'Invalid format. Expected ~r/^null$/',
    );
  },
  (v) => (v === null ? 'null' : String(v)),
  { anyOf: [{ type: 'integer' }, { type: 'string', enum: ['', 'null'] }], description: 'an integer; empty or `null`: none' },
);

export const HEX_STRING_FORMAT = 'Invalid format. Expected ~r/^0x([A-Fa-f0-9]*)$/';

/**
 * A log topic (HexString): a 32-byte hash → lower-case; "" or "null" → null (no topic).
 * Valid hex of another length is refused with the full-hash format (Blockscout: 422
 * `{"message":"Invalid parameter(s)"}`).
 */
export const topicOrNull: ParamCodec<Hash | null> = codec<Hash | null>(
  'Topic',
  (s) => {
    if (s === '' || s === 'null') return null;
    if (FULL_HASH_RE.test(s)) return s.toLowerCase() as Hash;
    return /^0x[A-Fa-f0-9]*$/.test(s) ? fail(FULL_HASH_FORMAT) : fail(HEX_STRING_FORMAT);
  },
  (v) => v ?? 'null',
  { type: 'string', pattern: `^(${FULL_HASH_RE.source.slice(1, -1)}|null|)$`, description: 'a 32-byte topic matching any of the four topics; empty or `null`: none' },
);

const NON_NEGATIVE_INTEGER_STRING_RE = /^([1-9][0-9]*|0)$/;

/** A non-negative integer string (no sign, no leading zeros) that fits a JS number → number. */
export const nonNegativeIntegerString: ParamCodec<number> = codec(
  'NonNegativeIntegerString',
  (s) => {
    if (!NON_NEGATIVE_INTEGER_STRING_RE.test(s)) return fail('Invalid format. Expected ~r/^([1-9][0-9]*|0)$/');
    const big = BigInt(s);
    return big > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(big);
  },
  String,
  { type: 'string', pattern: NON_NEGATIVE_INTEGER_STRING_RE.source },
);
