/**
 * GET /proxy/account-abstraction/paymasters — ERC-4337 paymasters with the operations they paid for, most first (Blockscout's
 * user-ops-indexer `Paymaster` shape, the address an Address object); page token
 * `"<count>,<address>"` (./userOperationParties.ts). A store without user operations: an empty page.
 */
import { renderAddress } from '../render/address.ts';
import { Paymaster, servicePage } from '../schema/userOperation.ts';
import { defineEndpoint } from './endpoint.ts';
import { partyPage } from './userOperationParties.ts';
import { SERVICE_PAGE_QUERY } from './userOperationPage.ts';

export const userOperationPaymasters = defineEndpoint({
  route: '/proxy/account-abstraction/paymasters',
  summary: 'ERC-4337 paymasters with the operations they paid for, most first',
  path: {},
  query: { ...SERVICE_PAGE_QUERY },
  response: servicePage(Paymaster),
  handler:
    ({ ds, render }) =>
    ({ query }) =>
    () =>
      partyPage(ds, render, 'paymaster', query, (p, ctx) => ({ address: renderAddress(p.address, ctx), total_ops: p.totalOps })),
});
