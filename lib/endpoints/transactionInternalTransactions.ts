/** GET /transactions/{transaction_hash_param}/internal-transactions — trace order (index ASC), top call left out. */
import * as E from 'fp-ts/lib/Either.js';
import { notFound } from '../errors.ts';
import { fullHash } from '../params/codecs.ts';
import { defineEndpoint } from './endpoint.ts';
import { INTERNAL_PAGING_QUERY, internalTransactionPage } from './internalTransactionPage.ts';
import { InternalTransaction } from '../schema/internal.ts';
import { page, pageWithMeta } from '../schema/page.ts';

export const transactionInternalTransactions = defineEndpoint({
  route: '/transactions/{transaction_hash_param}/internal-transactions',
  summary: 'Internal transactions of a transaction, in trace order',
  path: { transaction_hash_param: fullHash },
  query: INTERNAL_PAGING_QUERY,
  response: page(InternalTransaction),
  multichainResponse: pageWithMeta(InternalTransaction),
  handler:
    ({ ds, render, form }) =>
    ({ path, query, rawQuery }) =>
    async () => {
      const tx = await ds.getTransaction(path.transaction_hash_param);
      if (tx === null) return E.left(notFound);
      return E.right(await internalTransactionPage(ds, { transactionHash: tx.hash }, query, rawQuery, [], render, form));
    },
});
