/** API v2 verification: `/smart-contracts/verification/config` and the `verification/via/...` answers (Blockscout 11.2.7). */
import * as t from 'io-ts';

export const VerificationConfig = t.type({
  solidity_compiler_versions: t.array(t.string),
  vyper_compiler_versions: t.array(t.string),
  solidity_evm_versions: t.array(t.string),
  vyper_evm_versions: t.array(t.string),
  verification_options: t.array(t.string),
  is_rust_verifier_microservice_enabled: t.boolean,
  license_types: t.record(t.string, t.number),
});

/** `{"message": "Smart-contract verification started"}` and the other synchronous answers */
export const VerificationMessage = t.type({ message: t.string });
