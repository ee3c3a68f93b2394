/**
 * GET /transactions/{transaction_hash_param}/token-transfers — one transaction's transfers in
 * log order (log index ASC, ERC-1155 batches split, batch-aware paging); `type` filter. The
 * cursor's `block_number` value is not compared (keyset `log_index > index`), except in the {0, 0} end mark.
 */
import * as E from 'fp-ts/lib/Either.js';
import { notFound } from '../errors.ts';
import { fullHash, tokenTypeList } from '../params/codecs.ts';
import { itemsCount, listBody } from '../paging/page.ts';
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
      // Blockscout answers the cursor {block_number: 0, index: 0} with an empty page here
      if (query.block_number === 0 && query.index === 0) return E.right(listBody([], null));
      const types = query.type !== undefined && query.type.length > 0 ? { types: query.type } : {};
      return E.right(await transferListBody(ds, { transactionHash: tx.hash, ...types }, query, rawQuery, render));
    },
});
