/** GET /config/backend-version — which backend answers: scoutkit and its version. */
import * as E from 'fp-ts/lib/Either.js';
import { BackendVersion } from '../schema/config.ts';
import { SCOUTKIT_VERSION } from '../version.ts';
import { defineEndpoint } from './endpoint.ts';

export const configBackendVersion = defineEndpoint({
  route: '/config/backend-version',
  summary: 'The backend version (scoutkit, not Blockscout)',
  path: {},
  query: {},
  response: BackendVersion,
  handler: () => () => async () => E.right({ backend_version: `scoutkit ${SCOUTKIT_VERSION}` }),
});
