/**
 * GET /proxy/account-abstraction/factories — ERC-4337 factories with the accounts their operations created, most first (Blockscout's
 * user-ops-indexer `Factory` shape, the address an Address object); page token
 * `"<count>,<address>"` (./userOperationParties.ts). A store without user operations: an empty page.
 */
import { renderAddress } from '../render/address.ts';
import { Factory, servicePage } from '../schema/userOperation.ts';
import { defineEndpoint } from './endpoint.ts';
import { partyPage } from './userOperationParties.ts';
import { SERVICE_PAGE_QUERY } from './userOperationPage.ts';

export const userOperationFactories = defineEndpoint({
  route: '/proxy/account-abstraction/factories',
  summary: 'ERC-4337 factories with the accounts their operations created, most first',
  path: {},
  query: { ...SERVICE_PAGE_QUERY },
  response: servicePage(Factory),
  handler:
    ({ ds, render }) =>
    ({ query }) =>
    () =>
      partyPage(ds, render, 'factory', query, (p, ctx) => ({ address: renderAddress(p.address, ctx), total_accounts: p.totalOps })),
});
