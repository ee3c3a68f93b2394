/**
 * GET /tokens/{address_hash_param} — the token object: name, symbol, decimals, total_supply
 * (as the indexer read `totalSupply()`), holders_count (kept by the sink as balances change).
 * 404 without a token row.
 */
import * as E from 'fp-ts/lib/Either.js';
import { notFound } from '../errors.ts';
import { addressHash } from '../params/codecs.ts';
import { renderToken } from '../render/token.ts';
import { Token } from '../schema/token.ts';
import { defineEndpoint } from './endpoint.ts';

export const token = defineEndpoint({
  route: '/tokens/{address_hash_param}',
  summary: 'One token',
  path: { address_hash_param: addressHash },
  query: {},
  response: Token,
  handler:
    ({ ds }) =>
    ({ path }) =>
    async () => {
      const found = await ds.getToken(path.address_hash_param);
      return found === null ? E.left(notFound) : E.right(renderToken(found));
    },
});
