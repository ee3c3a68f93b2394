/** The Transaction object and its derived fields (fee, result, confirmations, method, ...). */
import type { TransactionRecord } from '../domain/records.ts';
import { effectiveGasPrice, priorityFeePerGas } from '../ingest/derive.ts';
import type * as t from 'io-ts';
import type { DecodedCall } from '../decode/decoder.ts';
import type { Fee, Transaction } from '../schema/transaction.ts';
import { renderAddress, renderAddressOrNull } from './address.ts';
import type { RenderContext } from './context.ts';
import type { DecodeContext } from './decode.ts';
import { decodeRevertReason, decodeTransactionInput, methodOfDecoded, transactionMethodOf } from './decode.ts';
import { dec, decOrNull, isoOrNull } from './format.ts';
import type { TransferJson } from './transfer.ts';

/** The Transaction object as the API writes it. */
export type TransactionJson = t.OutputOf<typeof Transaction>;

export function transactionResult(tx: TransactionRecord): string {
  if (tx.error === 'dropped/replaced') return 'dropped/replaced';
  if (tx.blockNumber === null) return 'pending';
  if (tx.status === null) return 'awaiting_internal_transactions';
  if (tx.status === 'ok') return 'success';
  return tx.error ?? 'awaiting_internal_transactions';
}

export function transactionFee(tx: TransactionRecord): t.OutputOf<typeof Fee> {
  if (tx.gasUsed !== null) {
    const price = effectiveGasPrice(tx, tx.baseFeePerGas);
    return { type: 'actual', value: price === null ? null : dec(price * tx.gasUsed) };
  }
  const price = tx.gasPrice ?? tx.maxFeePerGas;
  return { type: 'maximum', value: price === null ? null : dec(price * tx.gas) };
}

/**
 * The `method` of a transaction: the decoded method's name, else the selector when
 * it calls a contract, else null. Without a context only the known signatures name it.
 */
export function transactionMethod(tx: TransactionRecord, toIsContract: boolean, ctx: DecodeContext = {}): string | null {
  return transactionMethodOf(tx, toIsContract, ctx);
}

export function confirmations(tx: TransactionRecord, highestBlock: number | null): number {
  if (tx.blockNumber === null || highestBlock === null) return 0;
  return Math.max(1, 1 + highestBlock - tx.blockNumber);
}

/** Lists: `{raw}`; the detail: decoded (Error, Panic, a custom error by ABI), else `{raw}`. */
function revertReason(tx: TransactionRecord, detail: boolean, ctx: DecodeContext): { readonly raw: string | null } | DecodedCall | null {
  if (!transactionResult(tx).toLowerCase().includes('reverted')) return null;
  if (tx.revertReason === null) return detail ? null : { raw: null };
  return (detail ? decodeRevertReason(tx, tx.revertReason, ctx) : null) ?? { raw: tx.revertReason };
}

export interface TransactionShape {
  /** detail view: embedded token transfers (≤ 10) and overflow flag; lists: null */
  readonly tokenTransfers: { readonly items: readonly TransferJson[]; readonly overflow: boolean } | null;
  readonly detail: boolean;
}

export function renderTransaction(tx: TransactionRecord, ctx: RenderContext, shape: TransactionShape): TransactionJson {
  const toIsContract = tx.to !== null && (ctx.addresses.get(tx.to)?.isContract ?? false);
  const price = effectiveGasPrice(tx, tx.baseFeePerGas);
  const tip = priorityFeePerGas(tx, tx.baseFeePerGas);
  const decoded = decodeTransactionInput(tx, ctx);
  const method = methodOfDecoded(tx, decoded, toIsContract);
  const burnt =
    tx.maxFeePerGas === 0n ? '0' : tx.baseFeePerGas === null || tx.gasUsed === null ? null : dec(tx.baseFeePerGas * tx.gasUsed);
  return {
    authorization_list: [],
    base_fee_per_gas: decOrNull(tx.baseFeePerGas),
    block_number: tx.blockNumber,
    confirmation_duration: [],
    confirmations: confirmations(tx, ctx.highestBlock),
    created_contract: renderAddressOrNull(tx.createdContract, ctx),
    decoded_input: decoded,
    exchange_rate: null,
    fee: transactionFee(tx),
    fhe_operations_count: 0,
    from: renderAddress(tx.from, ctx),
    gas_limit: dec(tx.gas),
    gas_price: decOrNull(price),
    gas_used: decOrNull(tx.gasUsed),
    has_error_in_internal_transactions: tx.hasErrorInInternalTransactions,
    hash: tx.hash,
    historic_exchange_rate: null,
    is_pending_update: tx.blockNumber === null ? null : false,
    max_fee_per_gas: decOrNull(tx.maxFeePerGas),
    max_priority_fee_per_gas: decOrNull(tx.maxPriorityFeePerGas),
    method,
    nonce: tx.nonce,
    position: tx.index,
    priority_fee: tx.maxPriorityFeePerGas === null || tip === null || tx.gasUsed === null ? null : dec(tip * tx.gasUsed),
    raw_input: tx.input,
    result: transactionResult(tx),
    revert_reason: revertReason(tx, shape.detail, ctx),
    status: tx.status,
    timestamp: isoOrNull(tx.timestamp),
    to: renderAddressOrNull(tx.to, ctx),
    token_transfers: shape.tokenTransfers === null ? null : shape.tokenTransfers.items,
    token_transfers_overflow: shape.tokenTransfers === null ? null : shape.tokenTransfers.overflow,
    transaction_burnt_fee: burnt,
    transaction_tag: null,
    transaction_types: [...tx.kinds],
    type: tx.type,
    value: dec(tx.value),
  };
}

/** What a page of transactions renders with: the parties (with the type of a called token, which decides ERC-721's transferFrom), the ABIs. */
export const transactionRefs = (txs: readonly TransactionRecord[]) => ({
  addresses: txs.flatMap((t) => [t.from, t.to, t.createdContract]),
  highestBlock: true,
  decode: true,
});
