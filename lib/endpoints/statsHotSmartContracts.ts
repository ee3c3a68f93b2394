/**
 * GET /stats/hot-smart-contracts — the contracts (addresses that currently have code) most
 * called in a window, by the explorer's clock: `scale` 5m / 1h / 3h counts the consensus
 * transactions of blocks stamped in [now − n, now] (a scan of that window); 1d / 7d / 30d sums
 * the per-contract daily aggregates of the days from today − n to today (so `1d` is yesterday
 * and today), as Blockscout. Order: `sort` (transactions_count, default, or total_gas_used)
 * then the other count, both in `order` (desc by default), then the contract address
 * ascending (descending with asc). The cursor needs all three keys; `next_page_params` echoes
 * `sort`/`order` and keeps `items_count`, as Blockscout's. `balance` is the contract's current
 * coin balance (one batch read of the page's contracts), null when none is recorded. From a store
 * without listContractActivity (an optional query): 501, not available from this store.
 */
import * as E from 'fp-ts/lib/Either.js';
import { queryUnavailable } from '../errors.ts';
import { addressHash, bigInteger, enumOf, integer } from '../params/codecs.ts';
import { echo, itemsCount, listBody, pageSize, splitPage } from '../paging/page.ts';
import type { ContractActivityCursor, ContractActivityFilter } from '../ports.ts';
import { renderAddress } from '../render/address.ts';
import { loadContext } from '../render/context.ts';
import { checksum } from '../render/format.ts';
import { page } from '../schema/page.ts';
import { HotContract } from '../schema/stats.ts';
import { dayOf, daysBefore } from '../stats/chainStats.ts';
import { defineEndpoint } from './endpoint.ts';

export const HOT_CONTRACT_SCALES = ['5m', '1h', '3h', '1d', '7d', '30d'] as const;
export type HotContractScale = (typeof HOT_CONTRACT_SCALES)[number];

const HOT_CONTRACTS = 'Hot contracts';

const WINDOW_SECONDS: Readonly<Record<HotContractScale, number | null>> = { '5m': 300, '1h': 3_600, '3h': 10_800, '1d': null, '7d': null, '30d': null };
const WINDOW_DAYS: Readonly<Record<HotContractScale, number>> = { '5m': 0, '1h': 0, '3h': 0, '1d': 1, '7d': 7, '30d': 30 };

/** The window of a scale at `nowMs`. */
export function hotContractWindow(scale: HotContractScale, nowMs: number): ContractActivityFilter['window'] {
  const seconds = Math.floor(nowMs / 1000);
  const span = WINDOW_SECONDS[scale];
  if (span !== null) return { time: { from: seconds - span, to: seconds } };
  const today = dayOf(seconds);
  return { days: { from: daysBefore(today, WINDOW_DAYS[scale]), to: today } };
}

/** A JSON integer: a number while exact, else a bigint (written exactly). */
const jsonInteger = (v: bigint): number | bigint => (v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v);

export const statsHotSmartContracts = defineEndpoint({
  route: '/stats/hot-smart-contracts',
  summary: 'The contracts most called in a window (5m to 30d)',
  path: {},
  query: {
    scale: enumOf(HOT_CONTRACT_SCALES),
    sort: enumOf(['transactions_count', 'total_gas_used'] as const),
    order: enumOf(['asc', 'desc'] as const),
    transactions_count: integer({ min: 1 }),
    total_gas_used: bigInteger({ min: 0 }),
    contract_address_hash: addressHash,
    items_count: itemsCount,
  },
  requiredQuery: ['scale'],
  response: page(HotContract),
  mayLack: HOT_CONTRACTS,
  clock: true,
  handler:
    ({ ds, now, render }) =>
    ({ query, rawQuery }) =>
    async () => {
      if (ds.listContractActivity === undefined) return E.left(queryUnavailable(HOT_CONTRACTS));
      const size = pageSize(query);
      const filter: ContractActivityFilter = {
        window: hotContractWindow(query.scale ?? '1d', now()),
        sort: query.sort === 'total_gas_used' ? 'gasUsed' : 'transactionsCount',
      };
      const after: ContractActivityCursor | null =
        query.transactions_count !== undefined && query.total_gas_used !== undefined && query.contract_address_hash !== undefined
          ? { transactionsCount: query.transactions_count, gasUsed: query.total_gas_used, contract: query.contract_address_hash }
          : null;
      const probe = await ds.listContractActivity(filter, { after, limit: size + 1, order: query.order ?? 'desc' });
      const { rows, last } = splitPage(probe, size);
      const contracts = rows.map((r) => r.contract);
      const [ctx, balances] = await Promise.all([loadContext(ds, { addresses: contracts }, render), contracts.length === 0 ? [] : ds.getCoinBalances(contracts)]);
      const balanceOf = new Map(balances.map((b) => [b.address, b.value.toString()]));
      const items = rows.map((r) => ({
        contract_address: renderAddress(r.contract, ctx),
        transactions_count: r.transactionsCount,
        total_gas_used: jsonInteger(r.gasUsed),
        balance: balanceOf.get(r.contract) ?? null,
      }));
      const next =
        last === null
          ? null
          : {
              ...echo(rawQuery, ['sort', 'order']),
              contract_address_hash: checksum(last.contract),
              transactions_count: last.transactionsCount,
              total_gas_used: last.gasUsed.toString(),
              items_count: size,
            };
      return E.right(listBody(items, next));
    },
});
