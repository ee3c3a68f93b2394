/** The InternalTransaction object. */
import type { InternalTransactionRecord } from '../domain/records.ts';
import type * as t from 'io-ts';
import type { InternalTransaction } from '../schema/internal.ts';
import { renderAddress, renderAddressOrNull } from './address.ts';
import type { RenderContext } from './context.ts';
import { dec, iso } from './format.ts';

/** The InternalTransaction object as the API writes it. */
export type InternalTransactionJson = t.OutputOf<typeof InternalTransaction>;

export function renderInternalTransaction(it: InternalTransactionRecord, ctx: RenderContext): InternalTransactionJson {
  return {
    block_number: it.blockNumber,
    created_contract: renderAddressOrNull(it.createdContract, ctx),
    error: it.error,
    from: renderAddress(it.from, ctx),
    gas_limit: dec(it.gas ?? 0n),
    index: it.index,
    success: it.error === null,
    timestamp: iso(it.timestamp),
    to: renderAddressOrNull(it.to, ctx),
    transaction_hash: it.transactionHash,
    transaction_index: it.transactionIndex,
    type: it.type,
    value: dec(it.value),
  };
}

export const internalRefs = (items: readonly InternalTransactionRecord[]) => ({
  addresses: items.flatMap((i) => [i.from, i.to, i.createdContract]),
});
