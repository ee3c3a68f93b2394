/**
 * The per-address counters the memory store keeps: the rules of lib/stats/addressCounters.ts in
 * a table that forgets an address back at zero, and the order of the top-accounts list.
 */
import type { AccountRecord } from '../../lib/domain/records.ts';
import { CounterPartsTable } from '../../lib/stats/addressCounters.ts';

/** Every stored row adds its contribution once and takes it back when it goes. */
export class CounterTable extends CounterPartsTable {
  constructor() {
    super(true);
  }
}

export type AccountSort = 'balance' | 'transactionsCount';

const cmpBig = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0);
const cmpStr = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The order of listAccounts (lib/ports.ts AccountCursor): negative when `a` comes first.
 * The address always ascends; 'asc' flips only the leading column.
 */
export function accountOrder(sort: AccountSort, order: 'desc' | 'asc'): (a: AccountRecord, b: AccountRecord) => number {
  const dir = order === 'desc' ? -1 : 1;
  if (sort === 'balance') return (a, b) => dir * cmpBig(a.balance, b.balance) || cmpStr(a.address, b.address);
  return (a, b) => dir * cmpBig(a.transactionsCount, b.transactionsCount) || -cmpBig(a.balance, b.balance) || cmpStr(a.address, b.address);
}
