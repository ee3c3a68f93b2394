/**
 * JSON values as endpoints produce them, and their exact serialisation.
 *
 * A `bigint` in a body is an exact JSON *number* (for keys such as `unique_token`, whose token
 * ids can exceed 2^53). Everything else follows JSON.stringify.
 */

export type JsonValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue | undefined };

export type JsonObject = { readonly [key: string]: JsonValue | undefined };

const MARK = `\u0000bigint${Math.random().toString(36).slice(2)}:`;
const MARKED = new RegExp(`"${MARK.replace(/[\u0000]/g, '\\\\u0000')}(-?\\d+)"`, 'g');

/**
 * JSON text of a body, bigints written as exact integer literals. Bodies rarely hold bigints,
 * so plain JSON.stringify goes first (a replacer function makes it ~3× slower); it throws a
 * TypeError on a bigint, and only then the replacer runs.
 */
export function toJson(value: JsonValue): string {
  try {
    return JSON.stringify(value);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
  }
  return withBigints(value);
}

function withBigints(value: JsonValue): string {
  let sawBigint = false;
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'bigint') {
      sawBigint = true;
      return MARK + v.toString();
    }
    return v;
  });
  return sawBigint ? text.replace(MARKED, '$1') : text;
}
