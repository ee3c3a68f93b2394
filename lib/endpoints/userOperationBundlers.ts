/**
 * GET /proxy/account-abstraction/bundlers — ERC-4337 bundlers: the beneficiaries of bundle calls, with their bundles and operations, most bundles first (Blockscout's
 * user-ops-indexer `Bundler` shape, the address an Address object); page token
 * `"<count>,<address>"` (./userOperationParties.ts). A store without user operations: an empty page.
 */
import { renderAddress } from '../render/address.ts';
import { Bundler, servicePage } from '../schema/userOperation.ts';
import { defineEndpoint } from './endpoint.ts';
import { partyPage } from './userOperationParties.ts';
import { SERVICE_PAGE_QUERY } from './userOperationPage.ts';

export const userOperationBundlers = defineEndpoint({
  route: '/proxy/account-abstraction/bundlers',
  summary: 'ERC-4337 bundlers: the beneficiaries of bundle calls, with their bundles and operations, most bundles first',
  path: {},
  query: { ...SERVICE_PAGE_QUERY },
  response: servicePage(Bundler),
  handler:
    ({ ds, render }) =>
    ({ query }) =>
    () =>
      partyPage(ds, render, 'bundler', query, (p, ctx) => ({ address: renderAddress(p.address, ctx), total_bundles: p.totalBundles, total_ops: p.totalOps })),
});
