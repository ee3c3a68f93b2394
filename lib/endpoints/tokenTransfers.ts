/** GET /token-transfers — every token transfer, newest first; `type` filter. */
import * as E from 'fp-ts/lib/Either.js';
import { integer, tokenTypeList } from '../params/codecs.ts';
import { itemsCount } from '../paging/page.ts';
import { TRANSFER_PAGING_QUERY } from '../paging/transfers.ts';
import { defineEndpoint } from './endpoint.ts';
import { transferListBody } from './transferList.ts';
import { page } from '../schema/page.ts';
import { TokenTransfer } from '../schema/transfer.ts';

export const tokenTransfers = defineEndpoint({
  route: '/token-transfers',
  summary: 'Every token transfer, newest first',
  path: {},
  query: { type: tokenTypeList, limit: integer(), items_count: itemsCount, ...TRANSFER_PAGING_QUERY },
  response: page(TokenTransfer),
  handler:
    ({ ds, render }) =>
    ({ query, rawQuery }) =>
    async () =>
      E.right(
        await transferListBody(ds, query.type !== undefined && query.type.length > 0 ? { types: query.type } : {}, query, rawQuery, render),
      ),
});
