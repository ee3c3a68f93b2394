/** Pieces the list queries share: the empty list, and the address filter's sides. */
import type { Address } from '../../../lib/domain/records.ts';
import type { Direction } from '../../../lib/ports.ts';

export const NO_ROWS: readonly never[] = Object.freeze([]);

/** Whether an address filter matches a row sent by `from` and received by `to` (any of them). */
export function touches(address: Address, direction: Direction, from: Address, to: readonly (Address | null)[]): boolean {
  const sent = from === address;
  const received = to.includes(address);
  return direction === 'from' ? sent : direction === 'to' ? received : sent || received;
}

/** The lists an address filter reads: the sent side, the received side, or both. */
export function sides<T>(direction: Direction, sent: readonly T[], received: readonly T[]): (readonly T[])[] {
  return direction === 'from' ? [sent] : direction === 'to' ? [received] : [sent, received];
}
