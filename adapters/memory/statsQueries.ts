/**
 * The statistics queries of the memory store (lib/ports.ts "chain statistics"): counters and
 * daily aggregates read from State.stats; time windows and contract activity by walking the
 * consensus blocks (the memory store is the oracle, not the fast path).
 */
import type { Address, BlockRecord } from '../../lib/domain/records.ts';
import type {
  BlockTotals,
  ContractActivityCursor,
  ContractActivityFilter,
  ContractActivityRecord,
  DataSource,
  DailyStatsRecord,
  Page,
} from '../../lib/ports.ts';
import { pageSize } from './paging.ts';
import type { State } from './state.ts';

type StatsQueries = Required<Pick<DataSource, 'getChainCounters' | 'countPendingTransactions' | 'listDailyStats' | 'sumBlocks' | 'listContractActivity'>>;

/** The contract-activity order (desc form): > 0 when a comes after b. */
export function contractActivityOrder(sort: ContractActivityFilter['sort']): (a: ContractActivityCursor, b: ContractActivityCursor) => number {
  const count = (a: ContractActivityCursor, b: ContractActivityCursor) => b.transactionsCount - a.transactionsCount;
  const gas = (a: ContractActivityCursor, b: ContractActivityCursor) => (a.gasUsed === b.gasUsed ? 0 : a.gasUsed < b.gasUsed ? 1 : -1);
  const [first, second] = sort === 'gasUsed' ? [gas, count] : [count, gas];
  return (a, b) => first(a, b) || second(a, b) || (a.contract === b.contract ? 0 : a.contract < b.contract ? -1 : 1);
}

export function createStatsReader(s: State, consensusBlocks: () => readonly BlockRecord[]): StatsQueries {
  const isContract = (a: Address) => s.addresses.current(a)?.isContract === true;
  return {
    async getChainCounters() {
      return s.stats.current;
    },

    async countPendingTransactions(filter) {
      let n = 0;
      for (const t of s.pending.values()) if (filter.insertedSince === undefined || t.insertedAt >= filter.insertedSince) n++;
      return n;
    },

    async listDailyStats(range) {
      const out: DailyStatsRecord[] = [];
      for (const { record } of s.stats.days.values()) if (record.date >= range.from && record.date <= range.to) out.push(record);
      return out.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
    },

    async sumBlocks(range): Promise<BlockTotals> {
      let blocks = 0;
      let transactions = 0;
      let gasUsed = 0n;
      let fees = 0n;
      for (const b of consensusBlocks()) {
        if (b.timestamp < range.from || b.timestamp > range.to) continue;
        blocks++;
        transactions += b.transactionsCount;
        gasUsed += b.gasUsed;
        fees += b.transactionFees;
      }
      return { blocks, transactions, gasUsed, fees };
    },

    async listContractActivity(filter, page: Page<ContractActivityCursor>) {
      const totals = new Map<Address, { transactionsCount: number; gasUsed: bigint }>();
      const add = (contract: Address, count: number, gas: bigint) => {
        const t = totals.get(contract) ?? { transactionsCount: 0, gasUsed: 0n };
        t.transactionsCount += count;
        t.gasUsed += gas;
        totals.set(contract, t);
      };
      const { window } = filter;
      if ('time' in window) {
        for (const b of consensusBlocks()) {
          if (b.timestamp < window.time.from || b.timestamp > window.time.to) continue;
          const stored = s.blocks.get(b.hash)?.stored;
          for (const t of stored?.bundle.transactions ?? []) if (t.to !== null) add(t.to, 1, t.gasUsed ?? 0n);
        }
      } else {
        for (const r of s.stats.contractDays.values()) {
          if (r.date >= window.days.from && r.date <= window.days.to) add(r.contract, r.transactionsCount, r.gasUsed);
        }
      }
      const order = contractActivityOrder(filter.sort);
      const sign = page.order === 'desc' ? 1 : -1;
      const rows: ContractActivityRecord[] = [];
      for (const [contract, t] of totals) if (isContract(contract)) rows.push(Object.freeze({ contract, ...t }));
      rows.sort((a, b) => sign * order(a, b));
      const { after } = page;
      const past = after === null ? rows : rows.filter((r) => sign * order(r, after) > 0);
      return past.slice(0, pageSize(page.limit));
    },
  };
}
