/**
 * GET /main-page/indexing-status — always finished. Blockscout measures the blocks it holds
 * against its own highest block (not the node's head), and reports everything finished when
 * the answering process runs no indexer. Both hold here: the indexer writes blocks in order,
 * each with its traces, in atomic batches, so the range a store holds has no gaps, and the
 * API process indexes nothing itself. Ratios are numbers, as the official documents type them
 * (Blockscout sends decimal strings).
 */
import * as E from 'fp-ts/lib/Either.js';
import { IndexingStatus } from '../schema/stats.ts';
import { defineEndpoint } from './endpoint.ts';

export const mainPageIndexingStatus = defineEndpoint({
  route: '/main-page/indexing-status',
  summary: 'Indexing status: the stored range is complete',
  path: {},
  query: {},
  response: IndexingStatus,
  handler: () => () => async () =>
    E.right({
      finished_indexing: true,
      finished_indexing_blocks: true,
      indexed_blocks_ratio: 1,
      indexed_internal_transactions_ratio: 1,
    }),
});
