/**
 * GET /tokens/{address_hash_param}/counters — `token_holders_count` (the holders count the store
 * keeps as balances change) and `transfers_count` (an index range count of the token's
 * transfers), both strings. 404 without a token row.
 */
import * as E from 'fp-ts/lib/Either.js';
import { notFound } from '../errors.ts';
import { addressHash } from '../params/codecs.ts';
import { TokenCounters } from '../schema/tokenCounters.ts';
import { defineEndpoint } from './endpoint.ts';

export const tokenCounters = defineEndpoint({
  route: '/tokens/{address_hash_param}/counters',
  summary: "A token's holders and transfers counts",
  path: { address_hash_param: addressHash },
  query: {},
  response: TokenCounters,
  handler:
    ({ ds }) =>
    ({ path }) =>
    async () => {
      const token = await ds.getToken(path.address_hash_param);
      if (token === null) return E.left(notFound);
      const transfers = await ds.countTokenTransfers({ tokenAddress: token.address });
      const holders = token.holdersCount < 0n ? 0n : token.holdersCount;
      return E.right({ token_holders_count: holders.toString(), transfers_count: transfers.toString() });
    },
});
