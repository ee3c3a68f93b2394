/** Withdrawal items: the fields every list shares, and the per-list extras. */
import type { WithdrawalRecord } from '../domain/records.ts';
import type { JsonObject } from '../json.ts';
import { renderAddress } from './address.ts';
import type { RenderContext } from './context.ts';
import { dec, iso } from './format.ts';

/** Which fields a list sends: the block list drops block and time, the address list the receiver. */
export type WithdrawalShape = 'all' | 'block' | 'address';

export function renderWithdrawal(w: WithdrawalRecord, shape: WithdrawalShape, ctx: Pick<RenderContext, 'addresses'>): JsonObject {
  const base: JsonObject = { index: w.index, validator_index: w.validatorIndex, amount: dec(w.amount) };
  const placed = { block_number: w.blockNumber, timestamp: iso(w.timestamp) };
  if (shape === 'address') return { ...base, ...placed };
  const receiver = renderAddress(w.address, ctx);
  return shape === 'block' ? { ...base, receiver } : { ...base, ...placed, receiver };
}
