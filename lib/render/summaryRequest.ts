/**
 * `just_request_body=true` of a transaction's summary: what Blockscout sends its
 * transaction-interpreter (SummaryJustRequestBody) — the transaction's parties, value, method,
 * status, types, raw and decoded input, its token transfers, internal transactions and logs
 * (those the summary reads), and the chain id.
 */
import type * as t from 'io-ts';
import type { TransactionRecord } from '../domain/records.ts';
import type { SummaryJustRequestBody } from '../schema/summary.ts';
import type { SummaryRecords } from '../summary/types.ts';
import { renderAddress, renderAddressOrNull } from './address.ts';
import type { RenderContext } from './context.ts';
import { decodeTransactionInput, methodOfDecoded } from './decode.ts';
import { renderInternalTransaction } from './internal.ts';
import { renderLog } from './log.ts';
import { expandTransfer, renderTransfer, transferRefs } from './transfer.ts';

export type SummaryRequestJson = t.OutputOf<typeof SummaryJustRequestBody>;

/** Everything the request body renders, for loadContext. */
export function summaryRequestRefs(tx: TransactionRecord, records: SummaryRecords) {
  const refs = transferRefs(records.transfers.flatMap((r) => expandTransfer(r)));
  return {
    addresses: [tx.from, tx.to, ...refs.addresses, ...records.internals.flatMap((i) => [i.from, i.to, i.createdContract]), ...records.logs.map((l) => l.address)],
    tokens: refs.tokens,
    instances: refs.instances,
    decode: true,
  };
}

export function renderSummaryRequest(tx: TransactionRecord, records: SummaryRecords, ctx: RenderContext, chainId: string): SummaryRequestJson {
  const decoded = decodeTransactionInput(tx, ctx);
  const toIsContract = tx.to !== null && (ctx.addresses.get(tx.to)?.isContract ?? false);
  return {
    data: {
      to: renderAddressOrNull(tx.to, ctx),
      from: renderAddress(tx.from, ctx),
      hash: tx.hash,
      type: tx.type,
      value: tx.value.toString(),
      method: methodOfDecoded(tx, decoded, toIsContract),
      status: tx.status ?? 'pending',
      transaction_types: [...tx.kinds],
      raw_input: tx.input,
      decoded_input: decoded,
      token_transfers: records.transfers.flatMap((r) => expandTransfer(r)).map((item) => renderTransfer(item, ctx)),
      internal_transactions: records.internals.map((i) => renderInternalTransaction(i, ctx)),
    },
    logs_data: { items: records.logs.map((l) => renderLog(l, ctx)) },
    chain_id: /^\d+$/.test(chainId) && Number.isSafeInteger(Number(chainId)) ? Number(chainId) : null,
  };
}
