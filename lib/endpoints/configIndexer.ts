/**
 * GET /config/indexer — the API runs no indexer of its own: `scoutkit index` is a separate
 * process that fills the store. Every flag is false, as a Blockscout API-only node
 * (DISABLE_INDEXER=true) reports.
 */
import * as E from 'fp-ts/lib/Either.js';
import { IndexerConfig } from '../schema/config.ts';
import { defineEndpoint } from './endpoint.ts';

export const configIndexer = defineEndpoint({
  route: '/config/indexer',
  summary: 'Indexer configuration: none runs in the API process',
  path: {},
  query: {},
  response: IndexerConfig,
  handler: () => () => async () =>
    E.right({
      indexer_enabled: false,
      internal_transactions_fetcher_enabled: false,
      pending_transactions_fetcher_enabled: false,
      block_reward_fetcher_enabled: false,
      token_instance_retry_fetcher_enabled: false,
      token_instance_sanitize_fetcher_enabled: false,
    }),
});
