/**
 * The summary of a transaction (or a user operation) from its decoded data: the rules of
 * ./rules in order. The status is the caller's to judge (a transaction that did not succeed gets
 * no summary; Blockscout still interprets a failed user operation). A swap is said alone;
 * otherwise the creations, native transfers, mints, burns, token transfers and approvals, in
 * that order, at most MAX_SUMMARIES of them; an account's `execute` / `executeBatch` makes the
 * account the actor, and its calls that nothing else describes read `Call {method} on …`. No
 * rule applies: no summaries (an empty list, not an error).
 */
import { accountCalls, accountScope } from './rules/accountExecute.ts';
import { approvals } from './rules/approvals.ts';
import { contractCreations } from './rules/contractCreation.ts';
import { burns, mints } from './rules/mintsBurns.ts';
import { nativeTransfers } from './rules/nativeTransfer.ts';
import { swap } from './rules/swap.ts';
import { tokenTransfers } from './rules/tokenTransfers.ts';
import type { SummaryInput, SummaryItem, SummaryScope } from './types.ts';

/** The most summaries one transaction gets (an airdrop's hundreds of transfers: the first ones). */
export const MAX_SUMMARIES = 10;

/** The sender and its one call, or the account and the calls of its `execute` / `executeBatch`. */
export function scopeOf(input: SummaryInput): SummaryScope {
  const own = accountScope(input);
  if (own !== null) return own;
  const tx = input.transaction;
  return { actor: tx.from, calls: tx.to === null ? [] : [{ to: tx.to, value: tx.value, input: tx.input, decoded: input.decodedInput }], viaAccount: false };
}

export function summarize(input: SummaryInput): SummaryItem[] {
  const scope = scopeOf(input);
  const traded = swap(input, scope);
  if (traded !== null) return [traded];
  const items = [
    ...contractCreations(input),
    ...nativeTransfers(scope),
    ...mints(input.tokenTransfers, input.tokens),
    ...burns(input.tokenTransfers, input.tokens),
    ...tokenTransfers(input.tokenTransfers, input.tokens, scope.actor),
    ...approvals(input.logs, input.tokens, scope.actor),
  ];
  if (items.length === 0 && scope.viaAccount) items.push(...accountCalls(scope));
  return items.slice(0, MAX_SUMMARIES);
}
