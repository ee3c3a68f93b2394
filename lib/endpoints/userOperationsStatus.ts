/**
 * GET /proxy/account-abstraction/status — the user-ops-indexer's status as Blockscout answers
 * it (`finished_past_indexing`, one object per indexer task: `v06`, `v07_v08`). scoutkit has no
 * separate pass: the indexer decodes each block's operations as it writes the block (a store
 * indexed before user operations fills them with `--user-ops-backfill`, docs/operations.md). So a
 * store that holds user operations (the port's queries) answers both tasks enabled, live and
 * past indexing finished; a store without them both tasks disabled (`finished_past_indexing`
 * true: nothing is left to index, Blockscout's rule for disabled tasks).
 */
import * as E from 'fp-ts/lib/Either.js';
import { AccountAbstractionStatus } from '../schema/userOperation.ts';
import { defineEndpoint } from './endpoint.ts';

export const userOperationsStatus = defineEndpoint({
  route: '/proxy/account-abstraction/status',
  summary: 'The user-operation indexing status (Blockscout user-ops-indexer shape)',
  path: {},
  query: {},
  response: AccountAbstractionStatus,
  handler:
    ({ ds }) =>
    () =>
    async () => {
      const on = ds.listUserOperations !== undefined;
      const task = { enabled: on, live: on, past_db_logs_indexing_finished: on, past_rpc_logs_indexing_finished: on };
      return E.right({ finished_past_indexing: true, v06: task, v07_v08: task });
    },
});
