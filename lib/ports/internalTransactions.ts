/**
 * Internal transactions: their filter, cursor and query.
 */
import type { Address, Hash, InternalTransactionRecord } from '../domain/records.ts';
import type { BlockRange, Direction, Page } from './page.ts';

/** The top-level call (type call, index 0) is never listed; index-0 creates are. */
export interface InternalTransactionFilter {
  /** traces from, to or creating this address (see `direction`) */
  readonly address?: Address;
  /** with address: 'to' matches `to` and `createdContract` */
  readonly direction?: Direction;
  readonly transactionHash?: Hash;
  readonly blocks?: BlockRange;
}
/**
 * Order desc: (blockNumber DESC, transactionIndex DESC, index DESC). With transactionHash the
 * list is one transaction's, so only the cursor's `index` counts.
 */
export interface InternalTransactionCursor {
  readonly blockNumber: number;
  readonly transactionIndex: number;
  readonly index: number;
}

/** The internal transaction queries of a DataSource. */
export interface InternalTransactionQueries {
  listInternalTransactions(
    filter: InternalTransactionFilter,
    page: Page<InternalTransactionCursor>,
  ): Promise<readonly InternalTransactionRecord[]>;
}
