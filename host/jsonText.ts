/** A JSON body as text: lib hands out the same body object for a cached answer, so each is serialised once. */
import { toJson } from '../lib/index.ts';
import type { JsonValue } from '../lib/index.ts';

const texts = new WeakMap<object, string>();

export function jsonText(body: JsonValue): string {
  if (body === null || typeof body !== 'object') return toJson(body);
  let text = texts.get(body);
  if (text === undefined) {
    text = toJson(body);
    texts.set(body, text);
  }
  return text;
}
