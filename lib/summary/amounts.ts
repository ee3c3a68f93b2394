/**
 * Amounts as the summary prints them: a decimal string scaled by the token's decimals (the
 * frontend rounds it), and the phrase naming what a token transfer moved — `{amount} {token}`,
 * `{token} #{token_id}` (ERC-721), `{amount} {token} #{token_id}` (ERC-1155).
 */
import { formatUnits } from 'viem';
import type { Address, TokenRecord } from '../domain/records.ts';
import type { SummaryItem, SummaryTransfer, SummaryVariable } from './types.ts';
import { currency, text, token } from './types.ts';

/** The native coin's decimals. */
export const NATIVE_DECIMALS = 18;

/** `value` in whole units of a token of `decimals` (unknown decimals: the raw integer). */
export function scaled(value: bigint, decimals: bigint | null): string {
  if (decimals === null || decimals <= 0n || decimals > 255n) return value.toString();
  return formatUnits(value, Number(decimals));
}

/** What a transfer moved, as a template fragment and its variables: one per token id of a batch. */
export interface Moved {
  readonly phrase: string;
  readonly variables: Readonly<Record<string, SummaryVariable>>;
}

/** The pieces one transfer moved: a fungible amount, one NFT, or each id of an ERC-1155 batch. */
export function movedBy(tr: SummaryTransfer, tokens: ReadonlyMap<Address, TokenRecord>): readonly Moved[] {
  const tok = token(tr.tokenAddress, tr.tokenType);
  const decimals = tokens.get(tr.tokenAddress)?.decimals ?? null;
  if (tr.tokenIds.length === 0) {
    // a confidential token (ERC-7984) shows no amount
    if (tr.amount === null) return [{ phrase: '{token}', variables: { token: tok } }];
    return [{ phrase: '{amount} {token}', variables: { amount: currency(scaled(tr.amount, decimals)), token: tok } }];
  }
  if (tr.tokenType === 'ERC-721') {
    return tr.tokenIds.map((id) => ({ phrase: '{token} #{token_id}', variables: { token: tok, token_id: text(id.toString()) } }));
  }
  // a batch that repeats an id moved their sum (as Blockscout lists it)
  const byId = new Map<bigint, bigint>();
  tr.tokenIds.forEach((id, i) => byId.set(id, (byId.get(id) ?? 0n) + (tr.amounts[i] ?? tr.amount ?? 1n)));
  return [...byId].map(([id, amount]) => ({
    phrase: '{amount} {token} #{token_id}',
    variables: { amount: currency(amount.toString()), token: tok, token_id: text(id.toString()) },
  }));
}

/** `{action_type} <what moved><tail>` with the parties' variables. */
export function movedItem(action: string, moved: Moved, tail: string, parties: Readonly<Record<string, SummaryVariable>>): SummaryItem {
  return { template: `{action_type} ${moved.phrase}${tail}`, variables: { action_type: text(action), ...moved.variables, ...parties } };
}
