/**
 * Coin balances: an address's history (one record per block that changed it) and its current balance.
 */
import type { CoinBalanceRecord } from '../../../lib/domain/records.ts';
import type { VersionedDataSource } from '../../../lib/ports.ts';
import { coinBalanceVs, rangeDesc } from '../compare.ts';
import { takePage } from '../paging.ts';
import { NO_ROWS } from './filters.ts';
import type { MemoryReadContext } from './context.ts';

export function coinBalanceQueries({ s, views }: MemoryReadContext): Pick<VersionedDataSource, 'listCoinBalances' | 'getCoinBalance'> {
  return {
    async listCoinBalances(filter, page): Promise<readonly CoinBalanceRecord[]> {
      const rows = views().coinBalances.get(filter.address) ?? NO_ROWS;
      const c = page.after;
      return takePage(rows, page.limit, {
        cursor: c === null ? null : coinBalanceVs(c),
        window: rangeDesc(filter.blocks, (r: CoinBalanceRecord) => r.blockNumber),
        backward: page.order === 'asc',
      });
    },

    async getCoinBalance(address) {
      return s.coinBalances.current(address)?.value ?? null;
    },
  };
}
