/** GET /tokens/{address_hash_param}/transfers — one token's transfers, newest first. */
import * as E from 'fp-ts/lib/Either.js';
import { notFound } from '../errors.ts';
import { addressHash } from '../params/codecs.ts';
import { itemsCount } from '../paging/page.ts';
import { TRANSFER_PAGING_QUERY } from '../paging/transfers.ts';
import { defineEndpoint } from './endpoint.ts';
import { transferListBody } from './transferList.ts';
import { page } from '../schema/page.ts';
import { TokenTransfer } from '../schema/transfer.ts';

export const tokenTransfersOfToken = defineEndpoint({
  route: '/tokens/{address_hash_param}/transfers',
  summary: "A token's transfers, newest first",
  path: { address_hash_param: addressHash },
  query: { items_count: itemsCount, ...TRANSFER_PAGING_QUERY },
  response: page(TokenTransfer),
  handler:
    ({ ds, render }) =>
    ({ path, query, rawQuery }) =>
    async () => {
      const token = await ds.getToken(path.address_hash_param);
      if (token === null) return E.left(notFound);
      return E.right(await transferListBody(ds, { tokenAddress: token.address }, query, rawQuery, render));
    },
});
