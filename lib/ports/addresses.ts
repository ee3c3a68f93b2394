/**
 * Addresses: batch lookups, named addresses by prefix and the top accounts.
 */
import type { AccountRecord, Address, AddressCountersRecord, AddressRecord, AddressView } from '../domain/records.ts';
import type { Page } from './page.ts';

/** Addresses whose current coin balance is > 0, by balance or by transactions count. */
export interface AccountFilter {
  readonly sort: 'balance' | 'transactionsCount';
}
/**
 * Blockscout's orders, where the address always ascends (so 'asc' is not the exact reverse):
 * - balance, desc: (balance DESC, address ASC); asc: (balance ASC, address ASC)
 * - transactionsCount, desc: (transactionsCount DESC, balance DESC, address ASC);
 *   asc: (transactionsCount ASC, balance DESC, address ASC)
 * The cursor holds the last record's values (transactionsCount unused by the balance sort).
 */
export interface AccountCursor {
  readonly balance: bigint;
  readonly address: Address;
  readonly transactionsCount: bigint;
}

/** Named addresses whose name, ASCII-lower-cased, starts with the prefix (ASCII-lower-cased). */
export interface AddressListFilter {
  readonly namePrefix: string;
  /** only contracts (true) or only accounts (false); absent: both */
  readonly isContract?: boolean;
}
/** Order desc: (asciiLower(name) ASC by code point, hash ASC). */
export interface AddressListCursor {
  readonly name: string;
  readonly hash: Address;
}

/** The address queries of a DataSource. */
export interface AddressQueries {
  /** Batch lookups: one call per page, any order, missing keys simply absent. */
  getAddresses(hashes: readonly Address[]): Promise<readonly AddressRecord[]>;
  /**
   * A page's addresses as its renderers need them, in one query: for each address that has a
   * record, a token or proxy changes, its record (or null), its token's type and whether it is a
   * proxy; addresses with none of them absent.
   */
  getAddressViews(hashes: readonly Address[]): Promise<readonly AddressView[]>;
  /**
   * Optional: addresses with a positive current coin balance and their transactions count (see
   * AccountCursor). Without it the top accounts (`/addresses`) answer 501, not available from
   * this store (no other query orders addresses by balance at a bounded cost).
   */
  listAccounts?(filter: AccountFilter, page: Page<AccountCursor>): Promise<readonly AccountRecord[]>;
  /**
   * Optional: batch, the kept counters of these addresses (a key lookup each); addresses whose
   * four counters are all 0 are absent. Without it an address's counters answer 501, not
   * available from this store (counting its records would scan its whole history).
   */
  getAddressCounters?(addresses: readonly Address[]): Promise<readonly AddressCountersRecord[]>;
  /**
   * Optional: named addresses by name prefix (see AddressListFilter, AddressListCursor). Without
   * it a search finds no contract by its name (tokens, hashes and numbers as before).
   */
  listAddresses?(filter: AddressListFilter, page: Page<AddressListCursor>): Promise<readonly AddressRecord[]>;
}
