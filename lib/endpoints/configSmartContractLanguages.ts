/** GET /config/smart-contracts/languages — none: scoutkit verifies no contract sources. */
import * as E from 'fp-ts/lib/Either.js';
import { SmartContractLanguages } from '../schema/config.ts';
import { defineEndpoint } from './endpoint.ts';

export const configSmartContractLanguages = defineEndpoint({
  route: '/config/smart-contracts/languages',
  summary: 'Smart-contract languages supported (none: no verification)',
  path: {},
  query: {},
  response: SmartContractLanguages,
  handler: () => () => async () => E.right({ languages: [] }),
});
