/**
 * GET /api/v1/search (and `/{chain_id}/api/v1/search`) — the unified search at its v1 path, which
 * both official documents list: Blockscout keeps it "for backward compatibility" as a route of
 * the same controller action as `/api/v2/search`, so it answers exactly what `/search` answers
 * (./search.ts): the same parameters, items and `next_page_params`.
 */
import { defineEndpoint } from './endpoint.ts';
import { search } from './search.ts';

export const searchV1 = defineEndpoint({
  ...search,
  api: 'v1',
  summary: 'Search tokens, contracts, addresses, blocks and transactions (the v1 path of /api/v2/search)',
});
