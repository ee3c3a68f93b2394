/**
 * Paging and filtering shared by every list of the DataSource port: the page (keyset cursor, limit,
 * order), the block range and the address direction.
 */

export type Order = 'desc' | 'asc';

export interface Page<C> {
  /** the key of the last record of the previous page; null for the first page */
  readonly after: C | null;
  readonly limit: number;
  /** 'desc': the list's stated order; 'asc': its exact reverse */
  readonly order: Order;
}

/** Block numbers from `from` to `to`, both inclusive; an absent bound is open. */
export interface BlockRange {
  readonly from?: number;
  readonly to?: number;
}

/**
 * Which side of a record an address filter matches: 'from' = the sender; 'to' = the receiver
 * (or, where the record can create one, the created contract); 'any' (the default) = either.
 */
export type Direction = 'from' | 'to' | 'any';
