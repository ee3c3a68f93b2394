/**
 * What a stored row adds to the per-address counters (Blockscout's /addresses/{h}/counters),
 * as raw parts that hold whatever the address is: the transactions it sent or received (once
 * each), those it received, its token transfers, the gas used by its outgoing and its incoming
 * transactions, and the blocks it mined. Whether it is a contract is decided when the parts are
 * read (countersOf), so a contract created or rolled back later needs no recount. Both stores
 * keep their counters through this one table of rules: sign +1 adds a row, −1 takes it back.
 */
import type { Address, AddressCountersRecord } from '../domain/records.ts';

export interface CounterParts {
  txAny: bigint;
  txTo: bigint;
  transfers: bigint;
  gasIn: bigint;
  gasOut: bigint;
  validations: bigint;
}

export const zeroParts = (): CounterParts => ({ txAny: 0n, txTo: 0n, transfers: 0n, gasIn: 0n, gasOut: 0n, validations: 0n });
const isZero = (p: CounterParts): boolean => Object.values(p).every((v) => v === 0n);

export class CounterPartsTable {
  readonly parts = new Map<Address, CounterParts>();

  /** dropZero: forget an address whose parts are back to zero (a kept table, not a delta) */
  constructor(private readonly dropZero: boolean) {}

  private change(address: Address, f: (p: CounterParts) => void): void {
    const p = this.parts.get(address) ?? zeroParts();
    f(p);
    if (this.dropZero && isZero(p)) this.parts.delete(address);
    else this.parts.set(address, p);
  }

  /** A transaction (mined in a consensus block, or pending). */
  transaction(from: Address, to: Address | null, gasUsed: bigint | null, sign: 1n | -1n): void {
    const gas = (gasUsed ?? 0n) * sign;
    this.change(from, (p) => {
      p.txAny += sign;
      p.gasOut += gas;
    });
    if (to === null) return;
    this.change(to, (p) => {
      if (to !== from) p.txAny += sign;
      p.txTo += sign;
      p.gasIn += gas;
    });
  }

  /** A token transfer of a consensus block. */
  transfer(from: Address, to: Address, sign: 1n | -1n): void {
    this.change(from, (p) => (p.transfers += sign));
    if (to !== from) this.change(to, (p) => (p.transfers += sign));
  }

  /** A stored block, for its miner (whatever its consensus). */
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

/** Blockscout's gas usage: a contract's incoming gas (its outgoing when none), others' outgoing. */
export const gasUsageOf = (p: CounterParts, isContract: boolean): bigint => (isContract ? (p.gasIn > 0n ? p.gasIn : p.gasOut) : p.gasOut);

export function countersOf(address: Address, p: CounterParts, isContract: boolean): AddressCountersRecord {
  return {
    address,
    transactionsCount: transactionsCountOf(p, isContract),
    tokenTransfersCount: p.transfers,
    gasUsageCount: gasUsageOf(p, isContract),
    validationsCount: p.validations,
  };
}
