/**
 * What one consensus block adds to the chain's statistics (lib/ports.ts ChainCounters,
 * DailyStatsRecord and the per-contract daily activity behind ContractActivityRecord). Both
 * stores apply a block's contribution when they insert it and take it back (sign −1) when
 * they delete it, inside the same write, so rollback and replacement restore every aggregate
 * exactly. Pure: no store, no clock.
 */
import type { Address } from '../domain/records.ts';

const DAY_SECONDS = 86_400;

/** The UTC day (YYYY-MM-DD) of a unix timestamp in seconds. */
export function dayOf(timestamp: number): string {
  return new Date(Math.floor(timestamp / DAY_SECONDS) * DAY_SECONDS * 1000).toISOString().slice(0, 10);
}

/** The day `days` before `date` (YYYY-MM-DD; negative: after). */
export function daysBefore(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - days * DAY_SECONDS * 1000).toISOString().slice(0, 10);
}

/** What a block's statistics are computed from (a subset of BlockRecord). */
export interface BlockFacts {
  readonly timestamp: number;
  readonly gasUsed: bigint;
  readonly transactionsCount: number;
  readonly transactionFees: bigint;
}
/** What a transaction's contract activity is computed from (a subset of TransactionRecord). */
export interface TransactionFacts {
  readonly to: Address | null;
  readonly gasUsed: bigint | null;
}

export interface DayDelta {
  /** consensus blocks of the day: its row exists while this is above zero */
  blocks: number;
  transactionsCount: number;
  gasUsed: bigint;
  feeSum: bigint;
}
export interface ContractDayDelta {
  readonly date: string;
  readonly contract: Address;
  transactionsCount: number;
  gasUsed: bigint;
}

/** A sum of block contributions, signed. Addresses are counted by the stores (a set, not a sum). */
export class StatsDelta {
  blocks = 0;
  transactions = 0;
  gasUsed = 0n;
  readonly days = new Map<string, DayDelta>();
  /** keyed `${date}|${contract}` */
  readonly contractDays = new Map<string, ContractDayDelta>();

  get isEmpty(): boolean {
    return this.blocks === 0 && this.days.size === 0 && this.contractDays.size === 0;
  }

  /**
   * Add (sign 1) or take back (sign −1) one consensus block and its transactions. Every
   * transaction with a `to` counts towards that address's day: whether it is a contract is
   * asked when reading (Blockscout: "the `to` address currently has code").
   */
  addBlock(block: BlockFacts, transactions: readonly TransactionFacts[], sign: 1 | -1): void {
    const s = BigInt(sign);
    this.blocks += sign;
    this.transactions += sign * block.transactionsCount;
    this.gasUsed += s * block.gasUsed;
    const date = dayOf(block.timestamp);
    const day = this.days.get(date) ?? { blocks: 0, transactionsCount: 0, gasUsed: 0n, feeSum: 0n };
    day.blocks += sign;
    day.transactionsCount += sign * block.transactionsCount;
    day.gasUsed += s * block.gasUsed;
    day.feeSum += s * block.transactionFees;
    this.days.set(date, day);
    for (const t of transactions) {
      if (t.to === null) continue;
      const key = `${date}|${t.to}`;
      const entry = this.contractDays.get(key) ?? { date, contract: t.to, transactionsCount: 0, gasUsed: 0n };
      entry.transactionsCount += sign;
      entry.gasUsed += s * (t.gasUsed ?? 0n);
      this.contractDays.set(key, entry);
    }
  }
}
