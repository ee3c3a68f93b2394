/**
 * GET /addresses/{address_hash_param}/coin-balance-history-by-day — the closing balance of
 * each UTC day with a recorded balance change in the last 10 days (Blockscout's default
 * COIN_BALANCE_HISTORY_DAYS), oldest first. As Blockscout: the last item is the newest
 * balance record (its block's day and value), and when the list is not empty but has no item
 * for today, today is added with the last value.
 *
 * Each day's first block is found by a binary search over block timestamps (consensus blocks
 * are in time order), and each day's closing balance is the newest balance record in that
 * day's blocks: the cost grows with the days and the log of the chain, not with the chain.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { Address } from '../domain/records.ts';
import { firstBlockAtOrAfter } from '../paging/blockTime.ts';
import { addressHash } from '../params/codecs.ts';
import type { DataSource } from '../ports.ts';
import { CoinBalanceHistoryByDay } from '../schema/coinBalance.ts';
import { defineEndpoint } from './endpoint.ts';

export const COIN_BALANCE_HISTORY_DAYS = 10;
const DAY = 86_400;

const dateOf = (unixSeconds: number): string => new Date(unixSeconds * 1000).toISOString().slice(0, 10);

async function closingBalances(ds: DataSource, address: Address, now: number): Promise<{ date: string; value: string }[]> {
  const head = await ds.getHighestBlockNumber();
  if (head === null) return [];
  const start = Math.floor(now / DAY) * DAY - COIN_BALANCE_HISTORY_DAYS * DAY;
  const dayStarts = Array.from({ length: COIN_BALANCE_HISTORY_DAYS + 2 }, (_, k) => start + k * DAY);
  const bounds = await Promise.all(dayStarts.map((ts) => firstBlockAtOrAfter(ds, head, ts)));
  const days = await Promise.all(
    dayStarts.slice(0, -1).map(async (dayStart, k) => {
      const from = bounds[k] as number;
      const to = (bounds[k + 1] as number) - 1;
      if (to < from) return null;
      const [closing] = await ds.listCoinBalances({ address, blocks: { from, to } }, { after: null, limit: 1, order: 'desc' });
      return closing === undefined ? null : { date: dateOf(dayStart), value: closing.value.toString() };
    }),
  );
  const items = days.filter((d) => d !== null);
  if (items.length === 0) return items;
  const [newest] = await ds.listCoinBalances({ address }, { after: null, limit: 1, order: 'desc' });
  const newestBlock = newest === undefined ? null : await ds.getBlock({ number: newest.blockNumber });
  if (newest !== undefined && newestBlock !== null) items[items.length - 1] = { date: dateOf(newestBlock.timestamp), value: newest.value.toString() };
  const today = dateOf(now);
  const last = items[items.length - 1];
  if (last !== undefined && !items.some((i) => i.date === today)) items.push({ date: today, value: last.value });
  return items;
}

export const addressCoinBalanceHistoryByDay = defineEndpoint({
  route: '/addresses/{address_hash_param}/coin-balance-history-by-day',
  summary: 'Daily closing native balance of an address over the last 10 days',
  path: { address_hash_param: addressHash },
  query: {},
  response: CoinBalanceHistoryByDay,
  handler:
    ({ ds }) =>
    ({ path }) =>
    async () =>
      E.right({ days: COIN_BALANCE_HISTORY_DAYS, items: await closingBalances(ds, path.address_hash_param, Math.floor(Date.now() / 1000)) }),
});
