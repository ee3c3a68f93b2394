/**
 * Blockscout's Vyper verification methods (POST /smart-contracts/{address_hash_param}/verification/via/vyper-*):
 * no Vyper compiler here, so each answers 404 `{"message": VYPER_UNAVAILABLE}`, as Blockscout
 * answers a method whose service is off, with the reason; a bad address is still a 422.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { addressHash } from '../params/codecs.ts';
import { VerificationMessage } from '../schema/verification.ts';
import { defineEndpoint } from './endpoint.ts';
import { VERIFICATION_MAX_BODY_BYTES, VYPER_UNAVAILABLE } from './verificationForm.ts';

export function vyperMethod(method: 'vyper-code' | 'vyper-multi-part' | 'vyper-standard-input', summary: string) {
  return defineEndpoint({
    method: 'POST',
    route: `/smart-contracts/{address_hash_param}/verification/via/${method}`,
    summary: `${summary} (not available: no Vyper compiler here; answers 404)`,
    path: { address_hash_param: addressHash },
    query: {},
    body: { codec: t.unknown, maxBytes: VERIFICATION_MAX_BODY_BYTES },
    response: VerificationMessage,
    handler: () => () => () => Promise.resolve(E.left({ kind: 'NotFound' as const, message: VYPER_UNAVAILABLE })),
  });
}
