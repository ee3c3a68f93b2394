/**
 * GET /proxy/account-abstraction/operations/{operation_hash_param}/summary — what a user
 * operation did, in the official `Summary` shape, made by the transaction summary's rules
 * (lib/summary) from the operation's own data: the sender acting through its call data (an
 * account's `execute` / `executeBatch` decoded), the token transfers and logs of its log window.
 * A failed operation is still summarized (Blockscout interprets it; only a transaction's status
 * is checked). No rule applies: `{"success":true,"data":{"summaries":[]}}`.
 * `just_request_body=true`: what Blockscout would send its interpreter for the operation.
 * Unknown hash, or a store without user operations: 404 `{"code":5,...}`; malformed: 422.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { boolean, fullHash } from '../params/codecs.ts';
import { loadContext } from '../render/context.ts';
import { operationSummaryRequestRefs, renderOperationSummaryRequest } from '../render/summaryRequest.ts';
import { Summary, SummaryJustRequestBody } from '../schema/summary.ts';
import { defineEndpoint } from './endpoint.ts';
import { summaryAnswer } from './summaryRecords.ts';
import { userOperationNotFound } from './userOperationPage.ts';
import { operationSummaryInput, readOperationSummaryRecords } from './userOperationSummaryRecords.ts';

export const userOperationSummary = defineEndpoint({
  route: '/proxy/account-abstraction/operations/{operation_hash_param}/summary',
  summary: 'What a user operation did, in words: templates with address, token and amount variables',
  path: { operation_hash_param: fullHash },
  query: { just_request_body: boolean },
  response: t.union([Summary, SummaryJustRequestBody]),
  handler:
    ({ ds, render, chainId }) =>
    ({ path, query }) =>
    async () => {
      const op = ds.getUserOperation === undefined ? null : await ds.getUserOperation(path.operation_hash_param);
      if (op === null) return E.left(userOperationNotFound('user operation'));
      const records = await readOperationSummaryRecords(ds, op);
      if (query.just_request_body === true) {
        const ctx = await loadContext(ds, operationSummaryRequestRefs(op, records), render);
        return E.right(renderOperationSummaryRequest(op, records, ctx, chainId));
      }
      return E.right(await summaryAnswer(ds, await operationSummaryInput(ds, op, records, render), render));
    },
});
