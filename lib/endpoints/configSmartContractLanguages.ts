/**
 * GET /config/smart-contracts/languages — the languages a verified contract may be in
 * (solidity, vyper, yul, as Blockscout lists them) when the chain has a contract store; none
 * without one (nothing can be verified).
 */
import * as E from 'fp-ts/lib/Either.js';
import { CONTRACT_LANGUAGES } from '../contracts/records.ts';
import { SmartContractLanguages } from '../schema/config.ts';
import { defineEndpoint } from './endpoint.ts';

export const configSmartContractLanguages = defineEndpoint({
  route: '/config/smart-contracts/languages',
  summary: 'Smart-contract languages of verified contracts (none without a contract store)',
  path: {},
  query: {},
  response: SmartContractLanguages,
  handler:
    ({ chain }) =>
    () =>
    async () =>
      E.right({ languages: chain.contracts === undefined ? [] : [...CONTRACT_LANGUAGES] }),
});
