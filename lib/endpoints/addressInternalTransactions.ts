/** GET /addresses/{address_hash_param}/internal-transactions — `filter=to|from`. */
import * as E from 'fp-ts/lib/Either.js';
import { addressHash, enumOf } from '../params/codecs.ts';
import { defineEndpoint } from './endpoint.ts';
import { INTERNAL_PAGING_QUERY, internalTransactionPage } from './internalTransactionPage.ts';
import { InternalTransaction } from '../schema/internal.ts';
import { page, pageWithMeta } from '../schema/page.ts';

export const addressInternalTransactions = defineEndpoint({
  route: '/addresses/{address_hash_param}/internal-transactions',
  summary: 'Internal transactions from or to an address',
  path: { address_hash_param: addressHash },
  query: { ...INTERNAL_PAGING_QUERY, filter: enumOf(['to', 'from'] as const) },
  response: page(InternalTransaction),
  multichainResponse: pageWithMeta(InternalTransaction),
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
