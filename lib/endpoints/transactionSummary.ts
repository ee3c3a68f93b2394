/**
 * GET /transactions/{transaction_hash_param}/summary — what a transaction did, in the official
 * `Summary` shape of Blockscout's transaction-interpreter, made here by rules from the decoded
 * data (lib/summary): native and token transfers, mints and burns, approvals, contract
 * creation, an account's `execute` / `executeBatch`, a swap. The rules read the transaction,
 * its input decoded (verified ABI, proxies, signature table), its first SUMMARY_READ token
 * transfers, logs and internal transactions. No rule applies, or the transaction failed or is
 * pending: `{"success":true,"data":{"summaries":[]}}` (Blockscout answers `null` for a failed or
 * pending one, which neither official document allows). Unknown transaction → 404.
 * `just_request_body` is accepted (both documents declare it); the answer is the summary.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { TransactionRecord } from '../domain/records.ts';
import { decodeCall } from '../decode/decoder.ts';
import { notFound } from '../errors.ts';
import { boolean, fullHash } from '../params/codecs.ts';
import type { DataSource } from '../ports.ts';
import type { RenderOptions } from '../render/context.ts';
import { loadContext } from '../render/context.ts';
import { decodeTransactionInput, tiersFor } from '../render/decode.ts';
import { Summary } from '../schema/summary.ts';
import { renderSummary, summaryAddresses } from '../summary/render.ts';
import { summarize } from '../summary/summarize.ts';
import type { SummaryInput } from '../summary/types.ts';
import { defineEndpoint } from './endpoint.ts';

/** How many token transfers, logs and internal transactions of the transaction the rules read (each one query). */
export const SUMMARY_READ = 50;

const EMPTY = { success: true, data: { summaries: [] } };

/** The transaction's decoded data, as the rules read it. */
async function summaryInput(ds: DataSource, tx: TransactionRecord, render: RenderOptions): Promise<SummaryInput> {
  const page = { after: null, limit: SUMMARY_READ, order: 'asc' } as const;
  const [transfers, logs, internals] = await Promise.all([
    ds.listTokenTransfers({ transactionHash: tx.hash }, page),
    ds.listLogs({ transactionHash: tx.hash }, page),
    ds.listInternalTransactions({ transactionHash: tx.hash }, page),
  ]);
  // the called contract and every contract it called: their ABIs decode the input and an account's calls
  const ctx = await loadContext(
    ds,
    {
      addresses: [tx.to, ...internals.map((i) => i.to)],
      tokens: [...transfers.map((t) => t.tokenAddress), ...logs.map((l) => l.address)],
      decode: true,
    },
    render,
  );
  return {
    transaction: tx,
    decodedInput: decodeTransactionInput(tx, ctx),
    tokenTransfers: transfers,
    tokens: ctx.tokens,
    logs,
    internalTransactions: internals,
    decodeCall: (to, data) => decodeCall(tiersFor(ctx, to, tx.blockNumber, tx.index), data),
  };
}

export const transactionSummary = defineEndpoint({
  route: '/transactions/{transaction_hash_param}/summary',
  summary: 'What a transaction did, in words: templates with address, token and amount variables',
  path: { transaction_hash_param: fullHash },
  query: { just_request_body: boolean },
  response: Summary,
  handler:
    ({ ds, render }) =>
    ({ path }) =>
    async () => {
      const tx = await ds.getTransaction(path.transaction_hash_param);
      if (tx === null) return E.left(notFound);
      if (tx.status !== 'ok') return E.right(EMPTY);
      const input = await summaryInput(ds, tx, render);
      const items = summarize(input);
      if (items.length === 0) return E.right(EMPTY);
      const ctx = await loadContext(ds, { addresses: summaryAddresses(items) }, render);
      return E.right(renderSummary(items, ctx, input.tokens));
    },
});
