/** Withdrawal items: the fields every list shares, and the per-list extras. */
import type { WithdrawalRecord } from '../domain/records.ts';
import type * as t from 'io-ts';
import type { AddressWithdrawal, BlockWithdrawal, Withdrawal } from '../schema/withdrawal.ts';
import { renderAddress } from './address.ts';
import type { RenderContext } from './context.ts';
import { dec, iso } from './format.ts';

/** Which fields a list sends: the block list drops block and time, the address list the receiver. */
export type WithdrawalShape = 'all' | 'block' | 'address';

/** Each list's item as the API writes it. */
export interface WithdrawalJson {
  readonly all: t.OutputOf<typeof Withdrawal>;
  readonly block: t.OutputOf<typeof BlockWithdrawal>;
  readonly address: t.OutputOf<typeof AddressWithdrawal>;
}

export function renderWithdrawal<S extends WithdrawalShape>(w: WithdrawalRecord, shape: S, ctx: Pick<RenderContext, 'addresses'>): WithdrawalJson[S];
export function renderWithdrawal(w: WithdrawalRecord, shape: WithdrawalShape, ctx: Pick<RenderContext, 'addresses'>): WithdrawalJson[WithdrawalShape] {
  const base = { index: w.index, validator_index: w.validatorIndex, amount: dec(w.amount) };
  const placed = { block_number: w.blockNumber, timestamp: iso(w.timestamp) };
  if (shape === 'address') return { ...base, ...placed };
  const receiver = renderAddress(w.address, ctx);
  return shape === 'block' ? { ...base, receiver } : { ...base, ...placed, receiver };
}
