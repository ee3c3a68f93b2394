/**
 * The memory store's chain statistics: counters, daily aggregates and per-contract daily
 * activity, moved by each consensus block's contribution (lib/stats/chainStats.ts) as State
 * inserts and removes blocks. Rows whose counts fall to zero are dropped, so a rollback leaves
 * exactly what was there before the rolled-back blocks came.
 */
import type { Address } from '../../lib/domain/records.ts';
import type { ChainCounters, DailyStatsRecord } from '../../lib/ports.ts';
import type { StatsDelta } from '../../lib/stats/chainStats.ts';
import { ZERO_ADDRESS } from '../../lib/domain/hex.ts';

export interface ContractDayRecord {
  readonly date: string;
  readonly contract: Address;
  readonly transactionsCount: number;
  readonly gasUsed: bigint;
}

export class ChainStatsTable {
  private counters: ChainCounters = { blocks: 0, transactions: 0, addresses: 0, gasUsed: 0n, coinSupply: 0n, zeroAddressCoinBalance: 0n };
  /** date → aggregate, with the day's consensus block count */
  readonly days = new Map<string, { readonly record: DailyStatsRecord; readonly blocks: number }>();
  /** `${date}|${contract}` → aggregate */
  readonly contractDays = new Map<string, ContractDayRecord>();

  get current(): ChainCounters {
    return this.counters;
  }

  /** Apply a block contribution; `addresses` is the change in addresses with a coin balance. */
  apply(delta: StatsDelta, addresses: number): void {
    const c = this.counters;
    this.counters = Object.freeze({
      ...c,
      blocks: c.blocks + delta.blocks,
      transactions: c.transactions + delta.transactions,
      addresses: c.addresses + addresses,
      gasUsed: c.gasUsed + delta.gasUsed,
    });
    for (const [date, d] of delta.days) {
      const prev = this.days.get(date);
      const blocks = (prev?.blocks ?? 0) + d.blocks;
      if (blocks === 0) {
        this.days.delete(date);
        continue;
      }
      const r = prev?.record ?? { date, transactionsCount: 0, gasUsed: 0n, feeSum: 0n };
      const record = Object.freeze({
        date,
        transactionsCount: r.transactionsCount + d.transactionsCount,
        gasUsed: r.gasUsed + d.gasUsed,
        feeSum: r.feeSum + d.feeSum,
      });
      this.days.set(date, { record, blocks });
    }
    for (const [key, d] of delta.contractDays) {
      const prev = this.contractDays.get(key) ?? { date: d.date, contract: d.contract, transactionsCount: 0, gasUsed: 0n };
      const next = { ...prev, transactionsCount: prev.transactionsCount + d.transactionsCount, gasUsed: prev.gasUsed + d.gasUsed };
      if (next.transactionsCount === 0) this.contractDays.delete(key);
      else this.contractDays.set(key, Object.freeze(next));
    }
  }

  /**
   * Current coin balances changed: each address's balance before and after (undefined: none).
   * Moves the supply (Σ positive balances) and the zero address's balance by new − old.
   */
  moveBalances(changes: ReadonlyMap<Address, { readonly before: bigint | undefined; readonly after: bigint | undefined }>): void {
    let supply = 0n;
    let zero = 0n;
    for (const [address, { before, after }] of changes) {
      supply += positive(after) - positive(before);
      if (address === ZERO_ADDRESS) zero += (after ?? 0n) - (before ?? 0n);
    }
    if (supply === 0n && zero === 0n) return;
    const c = this.counters;
    this.counters = Object.freeze({ ...c, coinSupply: c.coinSupply + supply, zeroAddressCoinBalance: c.zeroAddressCoinBalance + zero });
  }
}

const positive = (v: bigint | undefined): bigint => (v !== undefined && v > 0n ? v : 0n);
