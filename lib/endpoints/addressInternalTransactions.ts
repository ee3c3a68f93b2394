/** GET /addresses/{address_hash_param}/internal-transactions — `filter=to|from`. */
import * as E from 'fp-ts/lib/Either.js';
import { addressHash, enumOf } from '../params/codecs.ts';
import { defineEndpoint } from './endpoint.ts';
import { INTERNAL_PAGING_QUERY, internalTransactionPage } from './internalTransactionPage.ts';

export const addressInternalTransactions = defineEndpoint({
  name: 'addressInternalTransactions',
  path: { address_hash_param: addressHash },
  query: { ...INTERNAL_PAGING_QUERY, filter: enumOf(['to', 'from'] as const) },
  handler:
    ({ ds, render, form }) =>
    ({ path, query, rawQuery }) =>
    async () =>
      E.right(
        await internalTransactionPage(
          ds,
          { address: path.address_hash_param, ...(query.filter === undefined ? {} : { direction: query.filter }) },
          query,
          rawQuery,
          ['filter'],
          render,
          form,
        ),
      ),
});
