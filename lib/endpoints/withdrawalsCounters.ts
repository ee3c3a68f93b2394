/**
 * GET /withdrawals/counters — how many withdrawals the store holds and their sum in wei, both
 * strings, read from the totals the store keeps as blocks are written and rolled back. From a
 * store without getWithdrawalTotals (an optional query): 501, not available from this store.
 */
import * as E from 'fp-ts/lib/Either.js';
import { queryUnavailable } from '../errors.ts';
import { WithdrawalCounters } from '../schema/withdrawal.ts';
import { defineEndpoint } from './endpoint.ts';

const WITHDRAWAL_TOTALS = 'Withdrawal totals';

export const withdrawalsCounters = defineEndpoint({
  route: '/withdrawals/counters',
  summary: 'Count and sum (wei) of the stored withdrawals',
  path: {},
  query: {},
  response: WithdrawalCounters,
  mayLack: WITHDRAWAL_TOTALS,
  handler:
    ({ ds }) =>
    () =>
    async () => {
      if (ds.getWithdrawalTotals === undefined) return E.left(queryUnavailable(WITHDRAWAL_TOTALS));
      const totals = await ds.getWithdrawalTotals();
      return E.right({ withdrawals_count: totals.count.toString(), withdrawals_sum: totals.sum.toString() });
    },
});
