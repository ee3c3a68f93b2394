/**
 * GET /addresses/{address_hash_param}/counters — the counters the store keeps for the address
 * (transactions, token transfers, gas usage, validations; Blockscout's contract rules), read
 * with one key lookup, as decimal strings. An address never counted: all "0". Unlike
 * Blockscout the counts are current when the request comes (no refresh in the background). From
 * a store without getAddressCounters (an optional query): 501, not available from this store.
 */
import * as E from 'fp-ts/lib/Either.js';
import { queryUnavailable } from '../errors.ts';
import { addressHash } from '../params/codecs.ts';
import { AddressCounters } from '../schema/addressCounters.ts';
import { defineEndpoint } from './endpoint.ts';

const ADDRESS_COUNTERS = 'Address counters';

export const addressCounters = defineEndpoint({
  route: '/addresses/{address_hash_param}/counters',
  summary: "An address's transactions, token transfers, gas usage and validations counts",
  path: { address_hash_param: addressHash },
  query: {},
  response: AddressCounters,
  mayLack: ADDRESS_COUNTERS,
  handler:
    ({ ds }) =>
    ({ path }) =>
    async () => {
      if (ds.getAddressCounters === undefined) return E.left(queryUnavailable(ADDRESS_COUNTERS));
      const [c] = await ds.getAddressCounters([path.address_hash_param]);
      return E.right({
        gas_usage_count: String(c?.gasUsageCount ?? 0n),
        token_transfers_count: String(c?.tokenTransfersCount ?? 0n),
        transactions_count: String(c?.transactionsCount ?? 0n),
        validations_count: String(c?.validationsCount ?? 0n),
      });
    },
});
