/**
 * Decoding a request body with its route's codec, as the query is decoded (the spec's 422
 * errors from the one error table), after its size is checked against the route's cap (413).
 *
 * A 422 error points into the body (`/name`, `/a/0/b`; `/` for the body as a whole), as
 * OpenApiSpex points body errors for Blockscout. A field the codec requires and the body lacks
 * is `Missing field: <name>`.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import type { RequestBody } from '../request.ts';
import type { ApiError, ParamError } from '../errors.ts';
import { invalidParams } from '../errors.ts';
import { toJson } from '../json.ts';
import type { JsonValue } from '../json.ts';

export interface BodyRule<B> {
  readonly codec: t.Decoder<unknown, B>;
  readonly maxBytes: number;
}

/** The body's value decoded by the route's codec; 413 over the cap, 422 when the codec refuses it. */
export function decodeBody<B>(rule: BodyRule<B>, body: RequestBody | undefined): E.Either<ApiError, B> {
  if (body !== undefined && body.size > rule.maxBytes) return E.left({ kind: 'PayloadTooLarge', maxBytes: rule.maxBytes });
  const decoded = rule.codec.decode(body?.value);
  if (E.isRight(decoded)) return decoded;
  return E.left(invalidParams(body === undefined ? [{ name: '', detail: 'Missing body' }] : bodyErrors(decoded.left)));
}

/** One error per failing place in the body, in the codec's order: a codec's own message before the generic one. */
function bodyErrors(errors: t.Errors): ParamError[] {
  const out: ParamError[] = [];
  const at = new Map<string, number>();
  for (const error of errors) {
    const keys: string[] = [];
    // context[0] is the codec itself; a union's members appear as numbered entries: not places
    for (let i = 1; i < error.context.length; i++) {
      const parent = error.context[i - 1]?.type as { readonly _tag?: string } | undefined;
      if (parent?._tag === 'UnionType' || parent?._tag === 'IntersectionType') continue;
      keys.push(error.context[i]?.key ?? '');
    }
    const name = keys.join('/');
    const last = keys[keys.length - 1];
    const detail = error.message ?? (error.value === undefined && last !== undefined ? `Missing field: ${last}` : GENERIC);
    const seen = at.get(name);
    if (seen === undefined) {
      at.set(name, out.length);
      out.push({ name, detail });
    } else if (out[seen]?.detail === GENERIC && detail !== GENERIC) out[seen] = { name, detail };
  }
  return out;
}

const GENERIC = 'Invalid value';

/** A JSON body for a library call (`handle`/`dispatch`): its size is its JSON text's, in UTF-8 bytes. */
export function jsonBody(value: JsonValue): RequestBody {
  return { type: 'json', value, size: new TextEncoder().encode(toJson(value)).length };
}
