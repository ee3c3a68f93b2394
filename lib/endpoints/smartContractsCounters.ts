/**
 * GET /smart-contracts/counters — contracts the indexer saw created (a kept count) and those of
 * the last 24 hours (by block time, an index range); with a contract store, the verified
 * contracts and those verified in the last 24 hours (by the explorer's clock); without one,
 * both verified counts are "0". From a store without countContracts (an optional query): 501,
 * not available from this store.
 */
import * as E from 'fp-ts/lib/Either.js';
import { queryUnavailable } from '../errors.ts';
import { SmartContractCounters } from '../schema/contract.ts';
import { defineEndpoint } from './endpoint.ts';

const DAY = 86_400;
const CONTRACT_COUNTS = 'Contract counts';

export const smartContractsCounters = defineEndpoint({
  route: '/smart-contracts/counters',
  summary: 'How many contracts the indexer saw created and how many are verified, in all and in the last 24 hours',
  path: {},
  query: {},
  response: SmartContractCounters,
  mayLack: CONTRACT_COUNTS,
  handler:
    ({ ds, chain, now }) =>
    () =>
    async () => {
      if (ds.countContracts === undefined) return E.left(queryUnavailable(CONTRACT_COUNTS));
      const contracts = chain.contracts;
      const [all, recent, verified, newVerified] = await Promise.all([
        ds.countContracts({}),
        ds.countContracts({ createdSince: Math.floor(Date.now() / 1000) - DAY }),
        contracts === undefined ? Promise.resolve(0) : contracts.countVerified({}),
        contracts === undefined ? Promise.resolve(0) : contracts.countVerified({ verifiedSince: now() - DAY * 1000 }),
      ]);
      return E.right({
        smart_contracts: String(all),
        new_smart_contracts_24h: String(recent),
        verified_smart_contracts: String(verified),
        new_verified_smart_contracts_24h: String(newVerified),
      });
    },
});
