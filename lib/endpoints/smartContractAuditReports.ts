/**
 * GET /smart-contracts/{address_hash_param}/audit-reports — no audit reports are collected, so a
 * known contract answers Blockscout's empty list; 404 for an address without a created contract.
 */
import * as E from 'fp-ts/lib/Either.js';
import { notFound } from '../errors.ts';
import { addressHash } from '../params/codecs.ts';
import { AuditReports } from '../schema/contract.ts';
import { defineEndpoint } from './endpoint.ts';

export const smartContractAuditReports = defineEndpoint({
  route: '/smart-contracts/{address_hash_param}/audit-reports',
  summary: "A contract's audit reports (none are collected)",
  path: { address_hash_param: addressHash },
  query: {},
  response: AuditReports,
  handler:
    ({ ds }) =>
    ({ path }) =>
    async () => {
      const [contract] = await ds.getContracts([path.address_hash_param]);
      return contract === undefined ? E.left(notFound) : E.right({ items: [], next_page_params: null });
    },
});
