/**
 * GET /stats/charts/market — no market data source: no history (empty `chart_data`, so no
 * prices) and `available_supply` 0, as Blockscout answers with its market fetchers off.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import { MarketChart } from '../schema/stats.ts';
import { defineEndpoint } from './endpoint.ts';

const NO_MARKET: t.OutputOf<typeof MarketChart> = { chart_data: [], available_supply: 0 };

export const statsMarketChart = defineEndpoint({
  route: '/stats/charts/market',
  summary: 'Daily closing price and market cap of the native coin (no market data: empty)',
  path: {},
  query: {},
  response: MarketChart,
  handler: () => () => async () => E.right(NO_MARKET),
});
