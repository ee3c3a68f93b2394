/**
 * GET /config/backend — no chain type (plain EVM); the OpenAPI dialect is Blockscout's
 * `default` build, the one this API answers in.
 */
import * as E from 'fp-ts/lib/Either.js';
import { BackendConfig } from '../schema/config.ts';
import { defineEndpoint } from './endpoint.ts';

export const configBackend = defineEndpoint({
  route: '/config/backend',
  summary: 'Chain type (none) and the OpenAPI dialect (default)',
  path: {},
  query: {},
  response: BackendConfig,
  handler: () => () => async () => E.right({ chain_type: null, openapi_spec_folder_name: 'default' }),
});
