/**
 * GET /withdrawals/counters — how many withdrawals the store holds and their sum in wei, both
 * strings, read from the totals the store keeps as blocks are written and rolled back.
 */
import * as E from 'fp-ts/lib/Either.js';
import { WithdrawalCounters } from '../schema/withdrawal.ts';
import { defineEndpoint } from './endpoint.ts';

export const withdrawalsCounters = defineEndpoint({
  route: '/withdrawals/counters',
  summary: 'Count and sum (wei) of the stored withdrawals',
  path: {},
  query: {},
  response: WithdrawalCounters,
  handler:
    ({ ds }) =>
    () =>
    async () => {
      const totals = await ds.getWithdrawalTotals();
      return E.right({ withdrawals_count: totals.count.toString(), withdrawals_sum: totals.sum.toString() });
    },
});
