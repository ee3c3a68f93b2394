/**
 * GET /stats/charts/transactions — transactions per UTC day from the daily aggregates, for
 * yesterday − 30 … yesterday (by the explorer's clock), newest first; days without blocks are
 * absent and today is never included (Blockscout's answer).
 */
import * as E from 'fp-ts/lib/Either.js';
import { TransactionsChart } from '../schema/stats.ts';
import { dayOf, daysBefore } from '../stats/chainStats.ts';
import { defineEndpoint } from './endpoint.ts';

/** Days before yesterday in the chart. */
export const CHART_DAYS = 30;

export const statsTransactionsChart = defineEndpoint({
  route: '/stats/charts/transactions',
  summary: 'Transactions per day over the 31 days up to yesterday (UTC)',
  path: {},
  query: {},
  response: TransactionsChart,
  clock: true,
  handler:
    ({ ds, now }) =>
    () =>
    async () => {
      const yesterday = daysBefore(dayOf(Math.floor(now() / 1000)), 1);
      const days = await ds.listDailyStats({ from: daysBefore(yesterday, CHART_DAYS), to: yesterday });
      return E.right({ chart_data: days.map((d) => ({ date: d.date, transactions_count: d.transactionsCount })) });
    },
});
