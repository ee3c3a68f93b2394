/**
 * GET /smart-contracts/verification/config — what verification accepts here: the Solidity
 * compilers at hand (the verifier's compiler directory, newest first), Blockscout's EVM version
 * lists and license types, and the methods (`flattened-code`, `standard-input`, `multi-part`;
 * none when the chain has no verifier or no contract store: nothing can be verified). No Vyper
 * compiler: `vyper_compiler_versions` is empty.
 */
import * as E from 'fp-ts/lib/Either.js';
import { LICENSE_TYPES } from '../contracts/records.ts';
import { VerificationConfig } from '../schema/verification.ts';
import { defineEndpoint } from './endpoint.ts';
import { VERIFICATION_METHODS } from './verificationForm.ts';

/** Blockscout's CONTRACT_VERIFICATION_ALLOWED_SOLIDITY_EVM_VERSIONS default */
export const SOLIDITY_EVM_VERSIONS = [
  'homestead',
  'tangerineWhistle',
  'spuriousDragon',
  'byzantium',
  'constantinople',
  'petersburg',
  'istanbul',
  'berlin',
  'london',
  'paris',
  'shanghai',
  'cancun',
  'prague',
  'osaka',
  'default',
] as const;
/** Blockscout's CONTRACT_VERIFICATION_ALLOWED_VYPER_EVM_VERSIONS default */
export const VYPER_EVM_VERSIONS = ['byzantium', 'constantinople', 'petersburg', 'istanbul', 'berlin', 'paris', 'shanghai', 'cancun', 'osaka', 'default'] as const;

export const verificationConfig = defineEndpoint({
  route: '/smart-contracts/verification/config',
  summary: 'What contract verification accepts: compiler versions, EVM versions, methods, license types',
  path: {},
  query: {},
  response: VerificationConfig,
  handler:
    ({ chain }) =>
    () =>
    async () => {
      const verifier = chain.contracts === undefined ? undefined : chain.verifier;
      const versions = verifier?.compilerVersions === undefined ? [] : await verifier.compilerVersions();
      return E.right({
        solidity_compiler_versions: [...versions],
        vyper_compiler_versions: [],
        solidity_evm_versions: [...SOLIDITY_EVM_VERSIONS],
        vyper_evm_versions: [...VYPER_EVM_VERSIONS],
        verification_options: verifier === undefined ? [] : [...VERIFICATION_METHODS],
        is_rust_verifier_microservice_enabled: false,
        license_types: { ...LICENSE_TYPES },
      });
    },
});
