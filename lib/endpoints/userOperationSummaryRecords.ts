/**
 * What a user operation's summary reads: the token transfers and logs of its log window in the
 * bundle transaction (`user_logs_start_index`, `user_logs_count`; at most SUMMARY_READ each, as
 * Blockscout sends its interpreter), and the rules' input made from them — the sender acting, its
 * call data decoded by the sender's ABIs (an account's `execute` / `executeBatch`, whose calls
 * the rules decode by their targets'). No internal transactions: the trace is the bundle's, not
 * the operation's.
 */
import { decodeCall } from '../decode/decoder.ts';
import type { UserOperationRecord } from '../domain/userOperations.ts';
import type { DataSource } from '../ports.ts';
import type { RenderOptions } from '../render/context.ts';
import { loadContext } from '../render/context.ts';
import { tiersFor } from '../render/decode.ts';
import type { SummaryInput, SummaryRecords } from '../summary/types.ts';
import { SUMMARY_READ } from './summaryRecords.ts';

export async function readOperationSummaryRecords(ds: DataSource, op: UserOperationRecord): Promise<SummaryRecords> {
  const count = Math.min(op.userLogsCount, SUMMARY_READ);
  if (count === 0) return { transfers: [], logs: [], internals: [] };
  const start = op.userLogsStartIndex;
  const inWindow = (logIndex: number): boolean => logIndex >= start && logIndex < start + op.userLogsCount;
  const [logs, transfers] = await Promise.all([
    ds.listLogs({ transactionHash: op.transactionHash }, { after: { blockNumber: op.blockNumber, index: start - 1 }, limit: count, order: 'asc' }),
    ds.listTokenTransfers({ transactionHash: op.transactionHash }, { after: { blockNumber: op.blockNumber, logIndex: start, inclusive: true }, limit: count, order: 'asc' }),
  ]);
  return { transfers: transfers.filter((t) => inWindow(t.logIndex)), logs: logs.filter((l) => inWindow(l.index)), internals: [] };
}

/** The rules' input of an operation: the sender calls itself with the call data (an account's execute). */
export async function operationSummaryInput(ds: DataSource, op: UserOperationRecord, records: SummaryRecords, render: RenderOptions): Promise<SummaryInput> {
  const ctx = await loadContext(
    ds,
    { addresses: [op.sender], tokens: [...records.transfers.map((t) => t.tokenAddress), ...records.logs.map((l) => l.address)], decode: true },
    render,
  );
  return {
    transaction: { from: op.sender, to: op.sender, value: 0n, createdContract: null, input: op.callData },
    decodedInput: decodeCall(tiersFor(ctx, op.sender, op.blockNumber, op.transactionIndex), op.callData),
    tokenTransfers: records.transfers,
    tokens: ctx.tokens,
    logs: records.logs,
    internalTransactions: [],
    decodeCall: (to, data) => decodeCall(tiersFor(ctx, to, op.blockNumber, op.transactionIndex), data),
  };
}
