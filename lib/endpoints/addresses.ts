/**
 * GET /addresses — top accounts: addresses whose current coin balance is positive, by balance
 * DESC then hash ASC; `sort=balance|transactions_count` with `order=asc|desc` (both, else the
 * default) as Blockscout: balance <order> then hash ASC, or transactions count <order> then
 * balance DESC, hash ASC. The cursor is Blockscout's: `fetched_coin_balance`, `hash` and
 * `transactions_count`, all three (a missing one gives the first page); `sort`/`order` echoed.
 * Without a price feed or a supply source, `exchange_rate` and `total_supply` are null. From a
 * store without listAccounts (an optional query): 501, not available from this store.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import type { AccountRecord } from '../domain/records.ts';
import { queryUnavailable } from '../errors.ts';
import type { JsonObject } from '../json.ts';
import { addressHash, enumOf, integerOrNull, integerString } from '../params/codecs.ts';
import { echo, itemsCount, pageSize, splitPage } from '../paging/page.ts';
import type { AccountCursor, AccountFilter, Order } from '../ports.ts';
import { renderAddress } from '../render/address.ts';
import { loadContext } from '../render/context.ts';
import { TopAddressesPage } from '../schema/topAddress.ts';
import { defineEndpoint } from './endpoint.ts';

const TOP_ACCOUNTS = 'Top accounts';

export const addresses = defineEndpoint({
  route: '/addresses',
  summary: 'Addresses holding the native coin, by balance or transactions count (top accounts)',
  path: {},
  query: {
    sort: enumOf(['balance', 'transactions_count'] as const),
    order: enumOf(['asc', 'desc'] as const),
    fetched_coin_balance: integerString,
    hash: addressHash,
    transactions_count: integerOrNull,
    items_count: itemsCount,
  },
  response: TopAddressesPage,
  mayLack: TOP_ACCOUNTS,
  handler:
    ({ ds, render }) =>
    ({ query, rawQuery }) =>
    async () => {
      if (ds.listAccounts === undefined) return E.left(queryUnavailable(TOP_ACCOUNTS));
      const size = pageSize(query);
      // sort and order apply only together, as in Blockscout
      const sorted = query.sort !== undefined && query.order !== undefined;
      const filter: AccountFilter = { sort: sorted && query.sort === 'transactions_count' ? 'transactionsCount' : 'balance' };
      const order: Order = sorted ? (query.order ?? 'desc') : 'desc';
      let after: AccountCursor | null = null;
      const { fetched_coin_balance: balance, hash, transactions_count: count } = query;
      if (balance !== undefined && hash !== undefined && count !== undefined) {
        if (filter.sort === 'transactionsCount' && count === null) {
          // a null count sorts last in desc, first in asc; no stored count is null
          if (order === 'desc') return E.right(body([], null));
          after = { balance, address: hash, transactionsCount: -1n };
        } else {
          after = { balance, address: hash, transactionsCount: BigInt(count ?? 0) };
        }
      }
      const { rows, last } = splitPage(await ds.listAccounts(filter, { after, limit: size + 1, order }), size);
      const ctx = await loadContext(ds, { addresses: rows.map((r) => r.address) }, render);
      const items = rows.map((r) => ({
        ...renderAddress(r.address, ctx),
        coin_balance: r.balance.toString(),
        transactions_count: r.transactionsCount.toString(),
      }));
      return E.right(body(items, last === null ? null : nextParams(last, size, rawQuery)));
    },
});

function nextParams(last: AccountRecord, size: number, rawQuery: Readonly<Record<string, string>>): JsonObject {
  return {
    ...echo(rawQuery, ['sort', 'order']),
    fetched_coin_balance: last.balance.toString(),
    hash: last.address,
    items_count: size,
    transactions_count: Number(last.transactionsCount),
  };
}

const body = (items: t.OutputOf<typeof TopAddressesPage>['items'], next: JsonObject | null): t.OutputOf<typeof TopAddressesPage> => ({
  items,
  next_page_params: next,
  exchange_rate: null,
  total_supply: null,
});
