/**
 * GET /proxy/account-abstraction/paymasters/{address_hash_param} — one ERC-4337 paymaster with its
 * counts (Blockscout's user-ops-indexer `Paymaster` shape); an address no operation names as
 * paymaster (or a store without user operations) → 404 `{"code":5,"message":"paymaster not found"}`.
 */
import { addressHash } from '../params/codecs.ts';
import { renderAddress } from '../render/address.ts';
import { Paymaster } from '../schema/userOperation.ts';
import { defineEndpoint } from './endpoint.ts';
import { partyOne } from './userOperationParties.ts';

export const userOperationPaymaster = defineEndpoint({
  route: '/proxy/account-abstraction/paymasters/{address_hash_param}',
  summary: 'One ERC-4337 paymaster with its counts',
  path: { address_hash_param: addressHash },
  query: {},
  response: Paymaster,
  handler:
    ({ ds, render }) =>
    ({ path }) =>
    () =>
      partyOne(ds, render, 'paymaster', path.address_hash_param, (p, ctx) => ({ address: renderAddress(p.address, ctx), total_ops: p.totalOps })),
});
