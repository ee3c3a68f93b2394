/**
 * Chain statistics: counters, daily aggregates, block sums and contract activity.
 */
import type { Address } from '../domain/records.ts';
import type { Page } from './page.ts';

/**
 * Chain-wide counters, kept by the sink as blocks are written and rolled back (reading them
 * costs the same on any chain size).
 */
export interface ChainCounters {
  /** consensus blocks */
  readonly blocks: number;
  /** transactions in consensus blocks (pending ones: countPendingTransactions) */
  readonly transactions: number;
  /** distinct addresses with a coin balance record in a consensus block */
  readonly addresses: number;
  /** Σ gasUsed of consensus blocks */
  readonly gasUsed: bigint;
  /** Σ of the positive current coin balances (wei): each address's latest consensus coin balance record */
  readonly coinSupply: bigint;
  /** the current coin balance of the zero address (wei; 0 when it has none), part of coinSupply when positive */
  readonly zeroAddressCoinBalance: bigint;
}

/** The transactions of the consensus blocks of one UTC day (kept by the sink). */
export interface DailyStatsRecord {
  /** YYYY-MM-DD (UTC) */
  readonly date: string;
  readonly transactionsCount: number;
  readonly gasUsed: bigint;
  /** Σ block transactionFees */
  readonly feeSum: bigint;
}

/** UTC days `from` to `to` (YYYY-MM-DD), both inclusive. */
export interface DateRange {
  readonly from: string;
  readonly to: string;
}

/** Unix seconds `from` to `to`, both inclusive. */
export interface TimeRange {
  readonly from: number;
  readonly to: number;
}

/** Sums over the consensus blocks of a time range. */
export interface BlockTotals {
  readonly blocks: number;
  readonly transactions: number;
  readonly gasUsed: bigint;
  readonly fees: bigint;
}

/**
 * Transactions to contracts (addresses that currently have code), grouped by contract: either
 * those of consensus blocks whose timestamp is in `time`, or the daily aggregates of `days`.
 */
export interface ContractActivityFilter {
  readonly window: { readonly time: TimeRange } | { readonly days: DateRange };
  /** the first sort key (default transactionsCount); the other count follows, then contract */
  readonly sort?: 'transactionsCount' | 'gasUsed';
}
export interface ContractActivityRecord {
  readonly contract: Address;
  readonly transactionsCount: number;
  readonly gasUsed: bigint;
}
/**
 * Order desc: (sort key DESC, the other key DESC, contract ASC); the cursor holds the last
 * row's three values.
 */
export interface ContractActivityCursor {
  readonly transactionsCount: number;
  readonly gasUsed: bigint;
  readonly contract: Address;
}

/** The chain statistics queries of a DataSource. */
export interface StatsQueries {
  /** Chain-wide counters (kept by the sink; a constant-cost read). */
  getChainCounters(): Promise<ChainCounters>;
  /** The daily aggregates of the days in range that have any consensus block, date DESC. */
  listDailyStats(range: DateRange): Promise<readonly DailyStatsRecord[]>;
  /**
   * Optional: sums over the consensus blocks whose timestamp is in range (a scan of that
   * window's blocks). Without it `/transactions/stats` answers 501, not available from this
   * store (a day of blocks read record by record is no bounded cost on a fast chain).
   */
  sumBlocks?(range: TimeRange): Promise<BlockTotals>;
  /**
   * Optional: contract activity (hot contracts); see ContractActivityFilter and
   * ContractActivityCursor. Without it `/stats/hot-smart-contracts` answers 501, not available
   * from this store (no other query groups transactions by contract).
   */
  listContractActivity?(
    filter: ContractActivityFilter,
    page: Page<ContractActivityCursor>,
  ): Promise<readonly ContractActivityRecord[]>;
}
