/**
 * `just_request_body=true` of a transaction's summary: what Blockscout sends its
 * transaction-interpreter (SummaryJustRequestBody) — the transaction's parties, value, method,
 * status, types, raw and decoded input, its token transfers, internal transactions and logs
 * (those the summary reads), and the chain id.
 */
import type * as t from 'io-ts';
import { decodeCall } from '../decode/decoder.ts';
import type { TransactionRecord } from '../domain/records.ts';
import type { UserOperationRecord } from '../domain/userOperations.ts';
import { executeCallOf } from '../userops/execute.ts';
import type { SummaryJustRequestBody } from '../schema/summary.ts';
import type { SummaryRecords } from '../summary/types.ts';
import { renderAddress, renderAddressOrNull } from './address.ts';
import type { RenderContext } from './context.ts';
import { decodeTransactionInput, methodOfDecoded, tiersFor } from './decode.ts';
import { renderInternalTransaction } from './internal.ts';
import { renderLog } from './log.ts';
import { expandTransfer, renderTransfer, transferRefs } from './transfer.ts';

export type SummaryRequestJson = t.OutputOf<typeof SummaryJustRequestBody>;

/** the chain id as the interpreter takes it: a number, or null for a served chain named otherwise */
const chainIdNumber = (chainId: string): number | null => (/^\d+$/.test(chainId) && Number.isSafeInteger(Number(chainId)) ? Number(chainId) : null);

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
    chain_id: chainIdNumber(chainId),
  };
}

/** Everything an operation's request body renders, for loadContext. */
export function operationSummaryRequestRefs(op: UserOperationRecord, records: SummaryRecords) {
  const refs = transferRefs(records.transfers.flatMap((r) => expandTransfer(r)));
  const execute = executeCallOf(op.callData);
  return {
    addresses: [op.sender, ...(execute === null ? [] : [execute.target]), ...refs.addresses, ...records.logs.map((l) => l.address)],
    tokens: refs.tokens,
    instances: refs.instances,
    decode: true,
  };
}

/**
 * `just_request_body=true` of a user operation's summary, as Blockscout builds it: from the
 * sender to the target of its `execute` (else the sender itself), the executed call data (else
 * the call data), type 0, value 0, its status, no transaction types or internal transactions,
 * the token transfers and logs of its log window.
 */
export function renderOperationSummaryRequest(op: UserOperationRecord, records: SummaryRecords, ctx: RenderContext, chainId: string): SummaryRequestJson {
  const execute = executeCallOf(op.callData);
  const to = execute?.target ?? op.sender;
  const input = execute?.callData ?? op.callData;
  const decoded = decodeCall(tiersFor(ctx, to, op.blockNumber, op.transactionIndex), input);
  const call = decoded?.method_call;
  return {
    data: {
      to: renderAddress(to, ctx),
      from: renderAddress(op.sender, ctx),
      hash: op.hash,
      type: 0,
      value: '0',
      method: call !== undefined ? call.slice(0, call.indexOf('(')) : input.length >= 10 ? input.slice(0, 10) : null,
      status: op.status ? 'ok' : 'error',
      transaction_types: [],
      raw_input: input,
      decoded_input: decoded,
      token_transfers: records.transfers.flatMap((r) => expandTransfer(r)).map((item) => renderTransfer(item, ctx)),
      internal_transactions: [],
    },
    logs_data: { items: records.logs.map((l) => renderLog(l, ctx)) },
    chain_id: chainIdNumber(chainId),
  };
}
