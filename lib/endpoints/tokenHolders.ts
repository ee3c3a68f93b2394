/**
 * GET /tokens/{address_hash_param}/holders — the token's holders by value DESC (see
 * ./holderList.ts); ERC-1155/404: one row per (holder, id), as Blockscout. 404 without a token row.
 */
import * as E from 'fp-ts/lib/Either.js';
import { notFound } from '../errors.ts';
import { addressHash } from '../params/codecs.ts';
import { TokenHolder } from '../schema/holder.ts';
import { page } from '../schema/page.ts';
import { defineEndpoint } from './endpoint.ts';
import { holderListBody, holderQuery } from './holderList.ts';

export const tokenHolders = defineEndpoint({
  route: '/tokens/{address_hash_param}/holders',
  summary: "A token's holders, by value",
  path: { address_hash_param: addressHash },
  query: holderQuery,
  response: page(TokenHolder),
  handler:
    ({ ds, render }) =>
    ({ path, query }) =>
    async () => {
      const token = await ds.getToken(path.address_hash_param);
      if (token === null) return E.left(notFound);
      return E.right(await holderListBody(ds, { tokenAddress: token.address }, query, render));
    },
});
