/**
 * GET /search/quick — the search unpaginated: a bare array of at most 50 items, every
 * non-empty category represented (lib/search/search.ts quickSearch), by priority DESC.
 * A `q` shorter than 3 bytes (after trimming) → [].
 */
import * as E from 'fp-ts/lib/Either.js';
import { anyString } from '../params/codecs.ts';
import { SearchQuick } from '../schema/search.ts';
import { classify } from '../search/classify.ts';
import { quickSearch } from '../search/search.ts';
import { defineEndpoint } from './endpoint.ts';

export const searchQuick = defineEndpoint({
  route: '/search/quick',
  summary: 'Quick (unpaginated) search',
  path: {},
  query: { q: anyString },
  response: SearchQuick,
  handler:
    ({ ds }) =>
    ({ query }) =>
    async () => {
      const q = (query.q ?? '').trim();
      if (new TextEncoder().encode(q).length < 3) return E.right([]);
      return E.right(await quickSearch(ds, classify(q)));
    },
});
