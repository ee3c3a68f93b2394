/**
 * Mints and burns of any token type, one summary per token (per id of an ERC-1155 batch):
 * - from the zero address: `Mint {amount} {token} to {to_address}` (to zero as well: no `to`);
 * - to the zero address: `Burn {amount} {token} from {from_address}`.
 */
import type { Address, TokenRecord } from '../../domain/records.ts';
import { ZERO_ADDRESS } from '../../domain/hex.ts';
import { movedBy, movedItem } from '../amounts.ts';
import type { SummaryItem, SummaryTransfer } from '../types.ts';
import { address } from '../types.ts';

/** Mints: transfers from the zero address. */
export function mints(transfers: readonly SummaryTransfer[], tokens: ReadonlyMap<Address, TokenRecord>): SummaryItem[] {
  return transfers
    .filter((t) => t.from === ZERO_ADDRESS)
    .flatMap((t) => movedBy(t, tokens).map((m) => (t.to === ZERO_ADDRESS ? movedItem('Mint', m, '', {}) : movedItem('Mint', m, ' to {to_address}', { to_address: address(t.to) }))));
}

/** Burns: transfers to the zero address (from any other). */
export function burns(transfers: readonly SummaryTransfer[], tokens: ReadonlyMap<Address, TokenRecord>): SummaryItem[] {
  return transfers
    .filter((t) => t.to === ZERO_ADDRESS && t.from !== ZERO_ADDRESS)
    .flatMap((t) => movedBy(t, tokens).map((m) => movedItem('Burn', m, ' from {from_address}', { from_address: address(t.from) })));
}
