/**
 * listAccounts and getAddressCounters over State: the counters are kept in State.counters, the
 * current coin balance is the latest coin balance entry; the sorted account lists are built
 * once per state version (per sort and order) and paged by binary search from the cursor.
 */
import type { AccountRecord, Address, AddressCountersRecord, CoinBalanceRecord } from '../../lib/domain/records.ts';
import type { AccountCursor, AccountFilter, Page } from '../../lib/ports.ts';
import type { AccountSort } from './counters.ts';
import { countersOf, transactionsCountOf } from '../../lib/stats/addressCounters.ts';
import { accountOrder } from './counters.ts';
import { firstWhere, pageSize } from './paging.ts';
import type { State } from './state.ts';

const isContract = (s: State, address: Address): boolean => s.addresses.current(address)?.isContract === true;

export function createAccountReader(s: State) {
  let cache: { version: number; lists: Map<string, readonly AccountRecord[]> } = { version: -1, lists: new Map() };

  function sorted(sort: AccountSort, order: 'desc' | 'asc'): readonly AccountRecord[] {
    if (cache.version !== s.version) cache = { version: s.version, lists: new Map() };
    const key = `${sort}|${order}`;
    const hit = cache.lists.get(key);
    if (hit !== undefined) return hit;
    const rows: AccountRecord[] = [];
    for (const key of s.coinBalances.keys()) {
      const balance = s.coinBalances.current(key);
      if (balance === undefined || balance.value <= 0n) continue;
      const address = balance.address;
      rows.push({ address, balance: balance.value, transactionsCount: transactionsCountOf(s.counters.get(address), isContract(s, address)) });
    }
    rows.sort(accountOrder(sort, order));
    const frozen = Object.freeze(rows.map((r) => Object.freeze(r)));
    cache.lists.set(key, frozen);
    return frozen;
  }

  return {
    async listAccounts(filter: AccountFilter, page: Page<AccountCursor>): Promise<readonly AccountRecord[]> {
      const n = pageSize(page.limit);
      if (n === 0) return [];
      const rows = sorted(filter.sort, page.order);
      const cmp = accountOrder(filter.sort, page.order);
      const c = page.after;
      const start = c === null ? 0 : firstWhere(rows, (r) => cmp(r, c) > 0);
      return rows.slice(start, start + n);
    },

    /** never-counted addresses (and those whose four counters are all 0) are absent */
    async getAddressCounters(addresses: readonly Address[]): Promise<readonly AddressCountersRecord[]> {
      const out: AddressCountersRecord[] = [];
      for (const address of new Set(addresses)) {
        const parts = s.counters.get(address);
        if (parts === undefined) continue;
        const r = countersOf(address, parts, isContract(s, address));
        // all four zero (e.g. a contract that only sent): counted nothing, absent
        if (r.transactionsCount !== 0n || r.tokenTransfersCount !== 0n || r.gasUsageCount !== 0n || r.validationsCount !== 0n) out.push(Object.freeze(r));
      }
      return out;
    },

    /** the latest coin balance entry of each address (a key lookup each); none: absent */
    async getCoinBalances(addresses: readonly Address[]): Promise<readonly CoinBalanceRecord[]> {
      const out: CoinBalanceRecord[] = [];
      for (const address of new Set(addresses)) {
        const c = s.coinBalances.current(address);
        if (c !== undefined) out.push(Object.freeze({ address, blockNumber: c.blockNumber, value: c.value }));
      }
      return out;
    },
  };
}
