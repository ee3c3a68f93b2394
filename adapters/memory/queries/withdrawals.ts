/**
 * Withdrawals: the list (../withdrawals.ts) and the kept totals.
 */
import type { VersionedDataSource } from '../../../lib/ports.ts';
import { listWithdrawals } from '../withdrawals.ts';
import type { MemoryReadContext } from './context.ts';

export function withdrawalQueries({ s }: MemoryReadContext): Pick<VersionedDataSource, 'listWithdrawals' | 'getWithdrawalTotals'> {
  return {
    async listWithdrawals(filter, page) {
      return listWithdrawals(s, filter, page);
    },

    async getWithdrawalTotals() {
      return { count: s.withdrawalTotals.count, sum: s.withdrawalTotals.sum };
    },
  };
}
