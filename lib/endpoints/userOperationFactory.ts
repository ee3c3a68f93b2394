/**
 * GET /proxy/account-abstraction/factories/{address_hash_param} — one ERC-4337 factory with its
 * counts (Blockscout's user-ops-indexer `Factory` shape); an address no operation names as
 * factory (or a store without user operations) → 404 `{"code":5,"message":"factory not found"}`.
 */
import { addressHash } from '../params/codecs.ts';
import { renderAddress } from '../render/address.ts';
import { Factory } from '../schema/userOperation.ts';
import { defineEndpoint } from './endpoint.ts';
import { partyOne } from './userOperationParties.ts';

export const userOperationFactory = defineEndpoint({
  route: '/proxy/account-abstraction/factories/{address_hash_param}',
  summary: 'One ERC-4337 factory with its counts',
  path: { address_hash_param: addressHash },
  query: {},
  response: Factory,
  handler:
    ({ ds, render }) =>
    ({ path }) =>
    () =>
      partyOne(ds, render, 'factory', path.address_hash_param, (p, ctx) => ({ address: renderAddress(p.address, ctx), total_accounts: p.totalOps })),
});
