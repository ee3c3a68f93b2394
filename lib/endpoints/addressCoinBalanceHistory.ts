/**
 * GET /addresses/{address_hash_param}/coin-balance-history — one item per block where the
 * indexer recorded the address's native balance, newest first, as Blockscout lists them (the
 * items' rules: lib/render/coinBalance.ts, shared with the socket's `coin_balance` event).
 */
import * as E from 'fp-ts/lib/Either.js';
import { addressHash, integer } from '../params/codecs.ts';
import { itemsCount, listBody, pageSize } from '../paging/page.ts';
import { readCoinBalanceChanges, renderCoinBalanceChanges } from '../render/coinBalance.ts';
import { CoinBalance } from '../schema/coinBalance.ts';
import { page } from '../schema/page.ts';
import { defineEndpoint } from './endpoint.ts';

export const addressCoinBalanceHistory = defineEndpoint({
  route: '/addresses/{address_hash_param}/coin-balance-history',
  summary: 'Native balance changes of an address, newest first',
  path: { address_hash_param: addressHash },
  query: { block_number: integer({ min: 0 }), items_count: itemsCount },
  response: page(CoinBalance),
  handler:
    ({ ds }) =>
    ({ path, query }) =>
    async () => {
      const size = pageSize(query);
      const address = path.address_hash_param;
      const after = query.block_number === undefined ? null : { blockNumber: query.block_number };
      const probe = await readCoinBalanceChanges(ds, address, after, size + 1);
      const rows = probe.slice(0, size);
      const items = await renderCoinBalanceChanges(ds, address, rows);
      const last = rows[rows.length - 1];
      return E.right(listBody(items, probe.length > size && last !== undefined ? { block_number: last.record.blockNumber, items_count: size } : null));
    },
});
