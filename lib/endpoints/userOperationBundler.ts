/**
 * GET /proxy/account-abstraction/bundlers/{address_hash_param} — one ERC-4337 bundler with its
 * counts (Blockscout's user-ops-indexer `Bundler` shape); an address no operation names as
 * bundler (or a store without user operations) → 404 `{"code":5,"message":"bundler not found"}`.
 */
import { addressHash } from '../params/codecs.ts';
import { renderAddress } from '../render/address.ts';
import { Bundler } from '../schema/userOperation.ts';
import { defineEndpoint } from './endpoint.ts';
import { partyOne } from './userOperationParties.ts';

export const userOperationBundler = defineEndpoint({
  route: '/proxy/account-abstraction/bundlers/{address_hash_param}',
  summary: 'One ERC-4337 bundler with its counts',
  path: { address_hash_param: addressHash },
  query: {},
  response: Bundler,
  handler:
    ({ ds, render }) =>
    ({ path }) =>
    () =>
      partyOne(ds, render, 'bundler', path.address_hash_param, (p, ctx) => ({ address: renderAddress(p.address, ctx), total_bundles: p.totalBundles, total_ops: p.totalOps })),
});
