/**
 * GET /advanced-filters/methods — without `q` the fixed list of popular methods; with `q`
 * (lower-cased) at most one `{method_id, name}`: a popular selector or name; else a 4-byte
 * selector, named when a known ABI names it (else name ""); else a known ABI method by name;
 * else nothing, by the known signatures (library users' ABIs, the standard methods, the
 * generated signature table). Constant work: no store query.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { POPULAR_METHODS } from '../advanced/filter.ts';
import { anyString } from '../params/codecs.ts';
import type { AbiIndex } from '../decode/abiIndex.ts';
import { knownMethodName, knownSelectorOf } from '../render/decode.ts';
import type { Hex } from '../domain/records.ts';
import { AdvancedFilterMethod } from '../schema/advanced.ts';
import { defineEndpoint } from './endpoint.ts';

export function findMethods(q: string | undefined, abis?: AbiIndex): { method_id: string; name: string }[] {
  if (q === undefined) return POPULAR_METHODS.map((m) => ({ method_id: m.method_id, name: m.name }));
  const query = q.toLowerCase();
  const popular = POPULAR_METHODS.find((m) => m.method_id === query || m.name === query);
  if (popular !== undefined) return [{ method_id: popular.method_id, name: popular.method_id === query ? popular.name : query }];
  if (/^0x[0-9a-f]{8}$/.test(query)) {
    const selector = query as Hex;
    return [{ method_id: selector, name: knownMethodName(selector, abis) ?? '' }];
  }
  const selector = knownSelectorOf(query);
  return selector === null ? [] : [{ method_id: selector, name: knownMethodName(selector, abis) ?? query }];
}

export const advancedFiltersMethods = defineEndpoint({
  route: '/advanced-filters/methods',
  summary: 'Popular contract methods, or the one method a selector or name finds',
  path: {},
  query: { q: anyString },
  response: t.array(AdvancedFilterMethod),
  handler:
    ({ render }) =>
    ({ query }) =>
    () =>
      Promise.resolve(E.right(findMethods(query.q, render.abis))),
});
