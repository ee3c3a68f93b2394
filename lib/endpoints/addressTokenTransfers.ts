/**
 * GET /addresses/{address_hash_param}/token-transfers — transfers from or to an address,
 * newest first; `filter=to|from`, `type` (token types), `token` (one token contract: an
 * unknown token is an empty page, as in Blockscout). ERC-1155 batches split per id.
 */
import * as E from 'fp-ts/lib/Either.js';
import { addressHash, enumOf, tokenTypeList } from '../params/codecs.ts';
import { echo, itemsCount, listBody } from '../paging/page.ts';
import { TRANSFER_PAGING_QUERY } from '../paging/transfers.ts';
import type { TokenTransferFilter } from '../ports.ts';
import { page } from '../schema/page.ts';
import { TokenTransfer } from '../schema/transfer.ts';
import { defineEndpoint } from './endpoint.ts';
import { transferListBody } from './transferList.ts';

export const addressTokenTransfers = defineEndpoint({
  route: '/addresses/{address_hash_param}/token-transfers',
  summary: 'Token transfers from or to an address, newest first',
  path: { address_hash_param: addressHash },
  query: {
    filter: enumOf(['to', 'from'] as const),
    type: tokenTypeList,
    token: addressHash,
    items_count: itemsCount,
    ...TRANSFER_PAGING_QUERY,
  },
  response: page(TokenTransfer),
  handler:
    ({ ds, render }) =>
    ({ path, query, rawQuery }) =>
    async () => {
      if (query.token !== undefined && (await ds.getToken(query.token)) === null) return E.right(listBody([], null));
      const filter: TokenTransferFilter = {
        address: path.address_hash_param,
        direction: query.filter ?? 'any',
        ...(query.type !== undefined && query.type.length > 0 ? { types: query.type } : {}),
        ...(query.token === undefined ? {} : { tokenAddress: query.token }),
      };
      return E.right(await transferListBody(ds, filter, query, rawQuery, render, echo(rawQuery, ['filter', 'token'])));
    },
});
