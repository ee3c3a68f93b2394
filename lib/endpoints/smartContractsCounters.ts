/**
 * GET /smart-contracts/counters — contracts the indexer saw created (a kept count) and those of
 * the last 24 hours (by block time, an index range); no contract is verified, so both verified
 * counts are "0".
 */
import * as E from 'fp-ts/lib/Either.js';
import { SmartContractCounters } from '../schema/contract.ts';
import { defineEndpoint } from './endpoint.ts';

const DAY = 86_400;

export const smartContractsCounters = defineEndpoint({
  route: '/smart-contracts/counters',
  summary: 'How many contracts the indexer saw created, in all and in the last 24 hours',
  path: {},
  query: {},
  response: SmartContractCounters,
  handler:
    ({ ds }) =>
    () =>
    async () => {
      const [all, recent] = await Promise.all([
        ds.countContracts({}),
        ds.countContracts({ createdSince: Math.floor(Date.now() / 1000) - DAY }),
      ]);
      return E.right({
        smart_contracts: String(all),
        new_smart_contracts_24h: String(recent),
        verified_smart_contracts: '0',
        new_verified_smart_contracts_24h: '0',
      });
    },
});
