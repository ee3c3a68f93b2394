/** GET /internal-transactions — all traces (newest first), or one transaction's (index ASC). */
import * as E from 'fp-ts/lib/Either.js';
import { fullHash, integer } from '../params/codecs.ts';
import { defineEndpoint } from './endpoint.ts';
import { INTERNAL_PAGING_QUERY, internalTransactionPage } from './internalTransactionPage.ts';
import { InternalTransaction } from '../schema/internal.ts';
import { page, pageWithMeta } from '../schema/page.ts';

export const internalTransactions = defineEndpoint({
  route: '/internal-transactions',
  summary: "Every internal transaction, newest first, or one transaction's",
  path: {},
  query: { ...INTERNAL_PAGING_QUERY, transaction_hash: fullHash, limit: integer() },
  response: page(InternalTransaction),
  multichainResponse: pageWithMeta(InternalTransaction),
  handler:
    ({ ds, render, form }) =>
    ({ query, rawQuery }) =>
    async () =>
      E.right(
        await internalTransactionPage(
          ds,
          query.transaction_hash === undefined ? {} : { transactionHash: query.transaction_hash },
          query,
          rawQuery,
          ['transaction_hash'],
          render,
          form,
        ),
      ),
});
