/** GET /main-page/transactions — the 6 newest validated transactions, as a bare array of list items. */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { loadContext } from '../render/context.ts';
import { renderTransaction, transactionRefs } from '../render/transaction.ts';
import { Transaction } from '../schema/transaction.ts';
import { defineEndpoint } from './endpoint.ts';

/** Blockscout's home page shows this many transactions. */
export const MAIN_PAGE_TRANSACTIONS = 6;

export const mainPageTransactions = defineEndpoint({
  route: '/main-page/transactions',
  summary: 'The newest validated transactions, as the home page shows them',
  path: {},
  query: {},
  response: t.array(Transaction),
  handler:
    ({ ds, render }) =>
    () =>
    async () => {
      const rows = await ds.listTransactions({ status: 'validated' }, { after: null, limit: MAIN_PAGE_TRANSACTIONS, order: 'desc' });
      const ctx = await loadContext(ds, transactionRefs(rows), render);
      return E.right(rows.map((tx) => renderTransaction(tx, ctx, { tokenTransfers: null, detail: false })));
    },
});
