/**
 * GET /stats — the home page's counters. Counts and totals come from the store's chain
 * counters (kept at write time); today's figures are **yesterday's** daily aggregate (UTC, by
 * the explorer's clock), as Blockscout; the average block time, gas price estimates and network
 * utilization from the newest 201 consensus blocks' figures (lib/stats): one narrow keyset read
 * of five columns (listBlockFigures), so the answer costs about one list page at any chain size.
 * No market data source: prices, images and TVL are null, market_cap "0".
 * `total_transactions` counts pending ones too.
 */
import * as E from 'fp-ts/lib/Either.js';
import { iso } from '../render/format.ts';
import { ChainStats } from '../schema/stats.ts';
import { averageSpacingMs, averageWindow, newestBlockFigures } from '../stats/averageBlockTime.ts';
import { dayOf, daysBefore } from '../stats/chainStats.ts';
import { gasPrices, networkUtilization } from '../stats/gasPrices.ts';
import { defineEndpoint } from './endpoint.ts';

const MINUTE_MS = 60_000;

export const stats = defineEndpoint({
  route: '/stats',
  summary: 'Chain counters, average block time, gas price estimates and network utilization',
  path: {},
  query: {},
  response: ChainStats,
  clock: true,
  handler:
    ({ ds, now }) =>
    () =>
    async () => {
      const at = now();
      const yesterday = daysBefore(dayOf(Math.floor(at / 1000)), 1);
      const [counters, pending, days, newest] = await Promise.all([
        ds.getChainCounters(),
        ds.countPendingTransactions({}),
        ds.listDailyStats({ from: yesterday, to: yesterday }),
        newestBlockFigures(ds),
      ]);
      const day = days[0];
      // the estimates are as fresh as the answer: at most a minute (the cache's span)
      const minute = Math.floor(at / MINUTE_MS) * MINUTE_MS;
      return E.right({
        total_blocks: String(counters.blocks),
        total_addresses: String(counters.addresses),
        total_transactions: String(counters.transactions + pending),
        average_block_time: averageSpacingMs(averageWindow(newest)),
        coin_image: null,
        coin_price: null,
        coin_price_change_percentage: null,
        secondary_coin_image: null,
        secondary_coin_price: null,
        total_gas_used: counters.gasUsed.toString(),
        transactions_today: String(day?.transactionsCount ?? 0),
        gas_used_today: day === undefined ? 0 : day.gasUsed.toString(),
        gas_prices: { ...gasPrices(newest) },
        gas_prices_update_in: minute + MINUTE_MS - at,
        gas_price_updated_at: iso(minute / 1000),
        static_gas_price: null,
        market_cap: '0',
        tvl: null,
        network_utilization_percentage: networkUtilization(newest),
      });
    },
});
