/**
 * GET /tokens/{address_hash_param}/instances/{token_id_param}/holders — holders of one id by
 * value DESC (see ./holderList.ts). 404 for an unknown or ERC-20 token; the instance is not
 * checked; ERC-721 balances are per contract, so an ERC-721 id lists no holders (as Blockscout).
 */
import * as E from 'fp-ts/lib/Either.js';
import { notFound } from '../errors.ts';
import { addressHash, integerString } from '../params/codecs.ts';
import { TokenHolder } from '../schema/holder.ts';
import { page } from '../schema/page.ts';
import { defineEndpoint } from './endpoint.ts';
import { holderListBody, holderQuery } from './holderList.ts';

export const tokenInstanceHolders = defineEndpoint({
  route: '/tokens/{address_hash_param}/instances/{token_id_param}/holders',
  summary: 'Holders of one NFT instance, by value',
  path: { address_hash_param: addressHash, token_id_param: integerString },
  query: holderQuery,
  response: page(TokenHolder),
  handler:
    ({ ds, render }) =>
    ({ path, query }) =>
    async () => {
      const token = await ds.getToken(path.address_hash_param);
      if (token === null || token.type === 'ERC-20') return E.left(notFound);
      return E.right(await holderListBody(ds, { tokenAddress: token.address, tokenId: path.token_id_param }, query, render));
    },
});
