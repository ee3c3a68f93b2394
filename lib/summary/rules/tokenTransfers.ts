/**
 * Token transfers between two non-zero addresses (ERC-20, ERC-721, ERC-1155, ERC-404), one
 * summary per token (per id of an ERC-1155 batch): `Transfer {amount} {token} to {to_address}`,
 * with `from {from_address}` before `to` when the sender is not the actor (a `transferFrom`, a
 * contract paying out). An ERC-721 piece reads `{token} #{token_id}`, an ERC-1155 one
 * `{amount} {token} #{token_id}`. Mints and burns: ./mintsBurns.ts.
 */
import type { Address, TokenRecord } from '../../domain/records.ts';
import { ZERO_ADDRESS } from '../../domain/hex.ts';
import { movedBy, movedItem } from '../amounts.ts';
import type { SummaryItem, SummaryTransfer } from '../types.ts';
import { address } from '../types.ts';

export function tokenTransfers(list: readonly SummaryTransfer[], tokens: ReadonlyMap<Address, TokenRecord>, actor: Address): SummaryItem[] {
  return list
    .filter((t) => t.from !== ZERO_ADDRESS && t.to !== ZERO_ADDRESS)
    .flatMap((t) =>
      movedBy(t, tokens).map((m) =>
        t.from === actor
          ? movedItem('Transfer', m, ' to {to_address}', { to_address: address(t.to) })
          : movedItem('Transfer', m, ' from {from_address} to {to_address}', { from_address: address(t.from), to_address: address(t.to) }),
      ),
    );
}
