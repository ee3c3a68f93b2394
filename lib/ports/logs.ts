/**
 * Logs: their filter, cursor and query.
 */
import type { Address, Hash, LogRecord } from '../domain/records.ts';
import type { BlockRange, Page } from './page.ts';

export interface LogFilter {
  readonly transactionHash?: Hash;
  /** logs emitted by this contract */
  readonly address?: Address;
  readonly blocks?: BlockRange;
}
/** Order desc: (blockNumber DESC, index DESC). With transactionHash only the cursor's `index` counts. */
export interface LogCursor {
  readonly blockNumber: number;
  readonly index: number;
}

/** The log queries of a DataSource. */
export interface LogQueries {
  listLogs(filter: LogFilter, page: Page<LogCursor>): Promise<readonly LogRecord[]>;
}
