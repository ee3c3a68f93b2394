/**
 * GET /transactions/{transaction_hash_param}/token-transfers — one transaction's transfers in
 * log order (log index ASC, ERC-1155 batches split, batch-aware paging); `type` filter.
 */
import * as E from 'fp-ts/lib/Either.js';
import { notFound } from '../errors.ts';
import { fullHash, tokenTypeList } from '../params/codecs.ts';
import { itemsCount } from '../paging/page.ts';
import { TRANSFER_PAGING_QUERY } from '../paging/transfers.ts';
import { defineEndpoint } from './endpoint.ts';
import { transferListBody } from './transferList.ts';
import { page } from '../schema/page.ts';
import { TokenTransfer } from '../schema/transfer.ts';

export const transactionTokenTransfers = defineEndpoint({
  route: '/transactions/{transaction_hash_param}/token-transfers',
  summary: 'Token transfers of a transaction, in log order',
  path: { transaction_hash_param: fullHash },
  query: { type: tokenTypeList, items_count: itemsCount, ...TRANSFER_PAGING_QUERY },
  response: page(TokenTransfer),
  handler:
    ({ ds, render }) =>
    ({ path, query, rawQuery }) =>
    async () => {
      const tx = await ds.getTransaction(path.transaction_hash_param);
      if (tx === null) return E.left(notFound);
      const types = query.type !== undefined && query.type.length > 0 ? { types: query.type } : {};
      return E.right(await transferListBody(ds, { transactionHash: tx.hash, ...types }, query, rawQuery, render));
    },
});
