/**
 * POST /smart-contracts/{address_hash_param}/verification/via/vyper-standard-input — Blockscout's Vyper standard-JSON input (a JSON file part).
 * No Vyper compiler here: always 404 `{"message": VYPER_UNAVAILABLE}` (lib/endpoints/verificationForm.ts),
 * as Blockscout answers a method whose service is off, with the reason.
 */
import * as t from 'io-ts';
import { addressHash } from '../params/codecs.ts';
import { VerificationMessage } from '../schema/verification.ts';
import { defineEndpoint } from './endpoint.ts';
import { VERIFICATION_MAX_BODY_BYTES, vyperUnavailable } from './verificationForm.ts';

export const verifyVyperStandardInput = defineEndpoint({
  method: 'POST',
  route: '/smart-contracts/{address_hash_param}/verification/via/vyper-standard-input',
  summary: 'Verify a Vyper contract from its standard-JSON input (not available: no Vyper compiler here; answers 404)',
  path: { address_hash_param: addressHash },
  query: {},
  body: { codec: t.unknown, maxBytes: VERIFICATION_MAX_BODY_BYTES },
  response: VerificationMessage,
  handler: vyperUnavailable,
});
