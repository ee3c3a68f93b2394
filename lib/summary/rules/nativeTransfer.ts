/**
 * Native coin sent without a call: the transaction's value to an address with no input, or an
 * account's call with value and no data — `Transfer {amount} {native} to {to_address}`
 * (`{native}` is the chain's coin symbol, which the frontend fills in).
 */
import { NATIVE_DECIMALS, scaled } from '../amounts.ts';
import type { SummaryItem, SummaryScope } from '../types.ts';
import { address, currency, text } from '../types.ts';

export function nativeTransfers(scope: SummaryScope): SummaryItem[] {
  return scope.calls
    .filter((c) => c.value > 0n && c.input.length <= 2)
    .map((c) => ({
      template: '{action_type} {amount} {native} to {to_address}',
      variables: { action_type: text('Transfer'), amount: currency(scaled(c.value, BigInt(NATIVE_DECIMALS))), to_address: address(c.to) },
    }));
}
