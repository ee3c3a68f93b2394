/**
 * Decoding a request's path and query parameters with an endpoint's codecs, producing the
 * spec's 422 errors in one place:
 * - path parameters first; if any fails, query errors are not reported;
 * - an unknown query parameter → exactly one error for the first unknown name (sorted),
 *   detail `Unexpected field: <name>` (name cut to 40 characters);
 * - otherwise one error per failing declared parameter, in declaration order (an `anyOf`
 *   parameter reports several details under the same pointer).
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import type { RawQuery } from '../request.ts';
import type { ApiError, ParamError } from '../errors.ts';
import { invalidParams } from '../errors.ts';
import type { Described } from '../openapi/jsonSchema.ts';
import { anyString } from './codecs.ts';

/** Parameter name → codec (held as a covariant io-ts Decoder) with the JSON Schema of what it accepts. */
export type ParamSpec = Readonly<Record<string, t.Decoder<unknown, unknown> & Described>>;

type ValueOf<C> = C extends t.Decoder<unknown, infer A> ? A : never;
export type DecodedPath<S extends ParamSpec> = { readonly [K in keyof S]: ValueOf<S[K]> };
export type DecodedQuery<S extends ParamSpec> = { readonly [K in keyof S]?: ValueOf<S[K]> };

/** Declared on every operation of the official documents: API key and secret key. */
export const COMMON_QUERY = { apikey: anyString, key: anyString } as const;

export interface Decoded<P extends ParamSpec, Q extends ParamSpec> {
  readonly path: DecodedPath<P>;
  readonly query: DecodedQuery<Q>;
  /** the query exactly as received (single values), for echoing */
  readonly rawQuery: Readonly<Record<string, string>>;
}

/** Repeated keys: the last value wins (as Plug does). */
export function singleValues(query: RawQuery): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    if (typeof v === 'string') out[k] = v;
    else if (v.length > 0) out[k] = v[v.length - 1] as string;
  }
  return out;
}

function decodeOne(name: string, c: t.Decoder<unknown, unknown>, raw: string, errors: ParamError[]): unknown {
  const r = c.decode(raw);
  if (E.isRight(r)) return r.right;
  for (const e of r.left) errors.push({ name, detail: e.message ?? 'Invalid value' });
  return undefined;
}

export function decodeRequest<P extends ParamSpec, Q extends ParamSpec>(
  spec: { readonly path: P; readonly query: Q; readonly requiredQuery?: readonly string[] },
  params: Readonly<Record<string, string>>,
  query: RawQuery,
): E.Either<ApiError, Decoded<P, Q>> {
  const errors: ParamError[] = [];
  const path: Record<string, unknown> = {};
  for (const [name, c] of Object.entries(spec.path)) {
    path[name] = decodeOne(name, c, params[name] ?? '', errors);
  }
  if (errors.length > 0) return E.left(invalidParams(errors));

  const rawQuery = singleValues(query);
  const declared: ParamSpec = { ...spec.query, ...COMMON_QUERY };
  const unknown = Object.keys(rawQuery)
    .filter((k) => !Object.prototype.hasOwnProperty.call(declared, k))
    .sort();
  if (unknown.length > 0) {
    return E.left(invalidParams([{ name: unknown[0] as string, detail: `Unexpected field: ${(unknown[0] as string).slice(0, 40)}` }]));
  }
  const decoded: Record<string, unknown> = {};
  const required = new Set(spec.requiredQuery ?? []);
  for (const [name, c] of Object.entries(spec.query)) {
    const raw = rawQuery[name];
    if (raw === undefined) {
      if (required.has(name)) errors.push({ name, detail: `Missing field: ${name}` });
      continue;
    }
    decoded[name] = decodeOne(name, c, raw, errors);
  }
  if (errors.length > 0) return E.left(invalidParams(errors));
  return E.right({ path: path as DecodedPath<P>, query: decoded as DecodedQuery<Q>, rawQuery });
}
