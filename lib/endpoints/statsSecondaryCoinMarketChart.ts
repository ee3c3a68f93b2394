/**
 * GET /stats/charts/secondary-coin-market — the secondary coin's daily closing prices.
 * Blockscout reads them from its market history rows of the secondary coin
 * (`Market.fetch_recent_history(true)`), which only a configured secondary coin with a market
 * fetcher fills; scoutkit has no market data source, so `chart_data` is empty, as Blockscout
 * answers without a secondary coin.
 */
import * as E from 'fp-ts/lib/Either.js';
import { SecondaryCoinMarketChart } from '../schema/stats.ts';
import { defineEndpoint } from './endpoint.ts';

export const statsSecondaryCoinMarketChart = defineEndpoint({
  route: '/stats/charts/secondary-coin-market',
  summary: "Daily closing price of the secondary coin (no market data: empty)",
  path: {},
  query: {},
  response: SecondaryCoinMarketChart,
  handler: () => () => async () => E.right({ chart_data: [] }),
});
