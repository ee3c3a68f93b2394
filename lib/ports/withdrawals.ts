/**
 * Withdrawals: their filter, cursor, totals and queries.
 */
import type { Address, WithdrawalRecord } from '../domain/records.ts';
import type { BlockRange, Page } from './page.ts';

/** Beacon-chain withdrawals of consensus blocks. */
export interface WithdrawalFilter {
  /** withdrawals to this address */
  readonly address?: Address;
  readonly blocks?: BlockRange;
}
/**
 * Order desc: (index DESC, blockNumber DESC) — the index is unique on a real chain; the block
 * number only orders rows a malformed source repeated. Cursor: strictly below `index`.
 */
export interface WithdrawalCursor {
  readonly index: number;
}
/** Kept by the store as blocks are written and rolled back (never a scan per request). */
export interface WithdrawalTotals {
  /** withdrawals stored in consensus blocks */
  readonly count: bigint;
  /** Σ amount (wei) of those withdrawals */
  readonly sum: bigint;
}

/** The withdrawal queries of a DataSource. */
export interface WithdrawalQueries {
  listWithdrawals(filter: WithdrawalFilter, page: Page<WithdrawalCursor>): Promise<readonly WithdrawalRecord[]>;
  /**
   * Optional: count and sum of the stored withdrawals (maintained on write and rollback).
   * Without it `/withdrawals/counters` answers 501, not available from this store (summing
   * listWithdrawals would read every withdrawal).
   */
  getWithdrawalTotals?(): Promise<WithdrawalTotals>;
}
