/**
 * Contracts created: the transaction's own creation, then each successful internal create
 * (a factory's) — `Deploy contract {contract_address}`.
 */
import type { Address } from '../../domain/records.ts';
import type { SummaryInput, SummaryItem } from '../types.ts';
import { address, text } from '../types.ts';

const deploy = (a: Address): SummaryItem => ({ template: '{action_type} contract {contract_address}', variables: { action_type: text('Deploy'), contract_address: address(a) } });

export function contractCreations(input: SummaryInput): SummaryItem[] {
  const created: Address[] = [];
  const top = input.transaction;
  if (top.to === null && top.createdContract !== null) created.push(top.createdContract);
  for (const it of input.internalTransactions) {
    if (it.createdContract !== null && it.error === null && it.type.startsWith('create') && !created.includes(it.createdContract)) created.push(it.createdContract);
  }
  return created.map(deploy);
}
