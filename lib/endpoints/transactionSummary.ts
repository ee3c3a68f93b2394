/**
 * GET /transactions/{transaction_hash_param}/summary — what a transaction did, in the official
 * `Summary` shape of Blockscout's transaction-interpreter, made here by rules from the decoded
 * data (lib/summary): native and token transfers, mints and burns, approvals, contract
 * creation, an account's `execute` / `executeBatch`, a swap. The rules read the transaction,
 * its input decoded (verified ABI, proxies, signature table), its first SUMMARY_READ token
 * transfers, logs and internal transactions. No rule applies, or the transaction failed or is
 * pending: `{"success":true,"data":{"summaries":[]}}` (Blockscout answers `null` for a failed or
 * pending one, which neither official document allows). `just_request_body=true`: what
 * Blockscout would send its interpreter (SummaryJustRequestBody). Unknown transaction → 404.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { notFound } from '../errors.ts';
import { boolean, fullHash } from '../params/codecs.ts';
import { loadContext } from '../render/context.ts';
import { renderSummaryRequest, summaryRequestRefs } from '../render/summaryRequest.ts';
import { Summary, SummaryJustRequestBody } from '../schema/summary.ts';
import { defineEndpoint } from './endpoint.ts';
import { readSummaryRecords, summaryAnswer, summaryInput } from './summaryRecords.ts';

const EMPTY = { success: true, data: { summaries: [] } };

export const transactionSummary = defineEndpoint({
  route: '/transactions/{transaction_hash_param}/summary',
  summary: 'What a transaction did, in words: templates with address, token and amount variables',
  path: { transaction_hash_param: fullHash },
  query: { just_request_body: boolean },
  response: t.union([Summary, SummaryJustRequestBody]),
  handler:
    ({ ds, render, chainId }) =>
    ({ path, query }) =>
    async () => {
      const tx = await ds.getTransaction(path.transaction_hash_param);
      if (tx === null) return E.left(notFound);
      if (query.just_request_body === true) {
        const records = await readSummaryRecords(ds, tx);
        const ctx = await loadContext(ds, summaryRequestRefs(tx, records), render);
        return E.right(renderSummaryRequest(tx, records, ctx, chainId));
      }
      if (tx.status !== 'ok') return E.right(EMPTY);
      return E.right(await summaryAnswer(ds, await summaryInput(ds, tx, await readSummaryRecords(ds, tx), render), render));
    },
});
