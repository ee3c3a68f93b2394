/**
 * Coin balances: the filter, cursor and queries of an address's native balance history.
 */
import type { Address, CoinBalanceRecord } from '../domain/records.ts';
import type { BlockRange, Page } from './page.ts';

export interface CoinBalanceFilter {
  readonly address: Address;
  readonly blocks?: BlockRange;
}
/**
 * Order desc: blockNumber DESC — the address's native balance as of each block where the
 * indexer recorded it (one record per address and block). Cursor: strictly past `blockNumber`.
 */
export interface CoinBalanceCursor {
  readonly blockNumber: number;
}

/** The coin balance queries of a DataSource. */
export interface CoinBalanceQueries {
  /** Coin balance history of one address (the newest record is its current balance). */
  listCoinBalances(filter: CoinBalanceFilter, page: Page<CoinBalanceCursor>): Promise<readonly CoinBalanceRecord[]>;
  /**
   * Batch: the current coin balance of these addresses (each one's latest consensus coin balance
   * record; a key lookup each), in the order asked, each once; addresses without one are absent.
   */
  getCoinBalances(addresses: readonly Address[]): Promise<readonly CoinBalanceRecord[]>;
  /**
   * Optional: the current coin balance of an address (its latest coin balance record in a
   * consensus block), null when the store has none. `eth_getBalance` answers from it.
   */
  getCoinBalance?(address: Address): Promise<bigint | null>;
}
