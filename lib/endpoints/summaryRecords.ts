/**
 * What a transaction's summary reads from the store: its first SUMMARY_READ token transfers,
 * logs and internal transactions (one query each, in log and trace order), and, from them, the
 * rules' input (lib/summary/types.ts) with the input decoded by the called contract's ABIs.
 */
import type { TransactionRecord } from '../domain/records.ts';
import { decodeCall } from '../decode/decoder.ts';
import type { DataSource } from '../ports.ts';
import type { RenderOptions } from '../render/context.ts';
import { loadContext } from '../render/context.ts';
import { decodeTransactionInput, tiersFor } from '../render/decode.ts';
import { renderSummary, summaryAddresses } from '../summary/render.ts';
import type { SummaryJson } from '../summary/render.ts';
import { summarize } from '../summary/summarize.ts';
import type { SummaryInput, SummaryRecords } from '../summary/types.ts';

/** How many token transfers, logs and internal transactions of the transaction are read. */
export const SUMMARY_READ = 50;

export async function readSummaryRecords(ds: DataSource, tx: TransactionRecord): Promise<SummaryRecords> {
  const page = { after: null, limit: SUMMARY_READ, order: 'asc' } as const;
  const [transfers, logs, internals] = await Promise.all([
    ds.listTokenTransfers({ transactionHash: tx.hash }, page),
    ds.listLogs({ transactionHash: tx.hash }, page),
    ds.listInternalTransactions({ transactionHash: tx.hash }, page),
  ]);
  return { transfers, logs, internals };
}

/** The rules' input: the called contract and every contract it called are loaded, their ABIs decode the input and an account's calls. */
export async function summaryInput(ds: DataSource, tx: TransactionRecord, records: SummaryRecords, render: RenderOptions): Promise<SummaryInput> {
  const ctx = await loadContext(
    ds,
    {
      addresses: [tx.to, ...records.internals.map((i) => i.to)],
      tokens: [...records.transfers.map((t) => t.tokenAddress), ...records.logs.map((l) => l.address)],
      decode: true,
    },
    render,
  );
  return {
    transaction: tx,
    decodedInput: decodeTransactionInput(tx, ctx),
    tokenTransfers: records.transfers,
    tokens: ctx.tokens,
    logs: records.logs,
    internalTransactions: records.internals,
    decodeCall: (to, data) => decodeCall(tiersFor(ctx, to, tx.blockNumber, tx.index), data),
  };
}

/** The Summary answer of the rules' input: `{"success":true,"data":{"summaries":[]}}` where no rule applies. */
export async function summaryAnswer(ds: DataSource, input: SummaryInput, render: RenderOptions): Promise<SummaryJson> {
  const items = summarize(input);
  if (items.length === 0) return { success: true, data: { summaries: [] } };
  const ctx = await loadContext(ds, { addresses: summaryAddresses(items) }, render);
  return renderSummary(items, ctx, input.tokens);
}
