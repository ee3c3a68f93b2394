/** GET /tokens/{address_hash_param}/instances/{token_id_param}/transfers — one NFT's transfers. */
import * as E from 'fp-ts/lib/Either.js';
import { notFound } from '../errors.ts';
import { addressHash, integer, integerString } from '../params/codecs.ts';
import { itemsCount } from '../paging/page.ts';
import { defineEndpoint } from './endpoint.ts';
import { transferListBody } from './transferList.ts';
import { page } from '../schema/page.ts';
import { TokenTransfer } from '../schema/transfer.ts';

export const tokenInstanceTransfers = defineEndpoint({
  route: '/tokens/{address_hash_param}/instances/{token_id_param}/transfers',
  summary: "One NFT instance's transfers",
  path: { address_hash_param: addressHash, token_id_param: integerString },
  query: { index: integer(), block_number: integer({ min: 0 }), token_id: integerString, items_count: itemsCount },
  response: page(TokenTransfer),
  handler:
    ({ ds, render }) =>
    ({ path, query, rawQuery }) =>
    async () => {
      const token = await ds.getToken(path.address_hash_param);
      if (token === null || token.type === 'ERC-20') return E.left(notFound);
      const tokenId = path.token_id_param;
      return E.right(
        await transferListBody(ds, { tokenAddress: token.address, tokenId }, query, rawQuery, render, {
          token_id: tokenId.toString(),
        }),
      );
    },
});
