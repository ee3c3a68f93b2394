/**
 * The per-address counters the memory store keeps (AddressCountersRecord), as raw parts that
 * hold whatever the address is: the transactions it sent or received (once each), those it
 * received, its token transfers, the gas used by its outgoing and its incoming transactions,
 * and the blocks it mined. Whether it is a contract is decided on read, so a contract created
 * (or rolled back) later needs no recount.
 *
 * Every stored row adds its contribution once and takes it back when it goes, so a rollback
 * leaves exactly the counts of the rows that remain.
 */
import type { AccountRecord, Address, AddressCountersRecord, TransactionRecord } from '../../lib/domain/records.ts';

export interface CounterParts {
  txAny: bigint;
  txTo: bigint;
  transfers: bigint;
  gasIn: bigint;
  gasOut: bigint;
  validations: bigint;
}

const zero = (): CounterParts => ({ txAny: 0n, txTo: 0n, transfers: 0n, gasIn: 0n, gasOut: 0n, validations: 0n });
const isZero = (p: CounterParts): boolean => Object.values(p).every((v) => v === 0n);

export class CounterTable {
  private readonly parts = new Map<Address, CounterParts>();

  private change(address: Address, f: (p: CounterParts) => void): void {
    const p = this.parts.get(address) ?? zero();
    f(p);
    if (isZero(p)) this.parts.delete(address);
    else this.parts.set(address, p);
  }

  /** A transaction (mined in a consensus block, or pending): sign +1 adds it, −1 takes it back. */
  transaction(tx: TransactionRecord, sign: 1n | -1n): void {
    const gas = (tx.gasUsed ?? 0n) * sign;
    this.change(tx.from, (p) => {
      p.txAny += sign;
      p.gasOut += gas;
    });
    const to = tx.to;
    if (to === null) return;
    this.change(to, (p) => {
      if (to !== tx.from) p.txAny += sign;
      p.txTo += sign;
      p.gasIn += gas;
    });
  }

  transfer(from: Address, to: Address, sign: 1n | -1n): void {
    this.change(from, (p) => (p.transfers += sign));
    if (to !== from) this.change(to, (p) => (p.transfers += sign));
  }

  block(miner: Address, sign: 1n | -1n): void {
    this.change(miner, (p) => (p.validations += sign));
  }

  get(address: Address): CounterParts | undefined {
    return this.parts.get(address);
  }
}

/** Blockscout's transactions count: a contract counts what it received, others what they sent or received. */
export const transactionsCountOf = (p: CounterParts | undefined, isContract: boolean): bigint =>
  p === undefined ? 0n : isContract ? p.txTo : p.txAny;

export function countersRecord(address: Address, p: CounterParts, isContract: boolean): AddressCountersRecord {
  return {
    address,
    transactionsCount: transactionsCountOf(p, isContract),
    tokenTransfersCount: p.transfers,
    gasUsageCount: isContract ? (p.gasIn > 0n ? p.gasIn : p.gasOut) : p.gasOut,
    validationsCount: p.validations,
  };
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
