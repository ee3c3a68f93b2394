/**
 * Verify one address and save the result: the address's code (from the chain's DataSource) is
 * matched by what the caller gives, either a build's artifacts (an ArtifactMatcher: no compile)
 * or a ContractVerifier with the sources (a compile), and a match is saved into the chain's
 * contract store (saveVerifiedContract's rules: a full match replaces a partial one).
 */
import type { ChainConfig } from '../chain-config.ts';
import type { Address, ContractCodeRecord, Hex } from '../domain/records.ts';
import type { JsonObject, JsonValue } from '../json.ts';
import { licenseTypeOf } from './license.ts';
import type { CodeFormat, VerifiedContract as StoredContract } from './records.ts';
import { verifiedContractOf } from './save.ts';
import type { SaveVerifiedInput } from './save.ts';
import type { ContractStore } from './store.ts';
import type { ContractVerifier, FailureReason, VerificationJob, VerificationOutcome } from './verifier.ts';

/** Matches a deployed code against known compiled contracts (adapters/solc: createArtifactMatcher). */
export interface ArtifactMatcher {
  /** `creation`: the creation input (init code and constructor arguments) when known */
  match(deployed: Hex, creation: Hex | null): VerificationOutcome;
}

/** What verifies: a build's artifacts, or a verifier with the job's sources (the code is read from the chain). */
export type VerifyWith =
  | { readonly artifacts: ArtifactMatcher }
  | { readonly verifier: ContractVerifier; readonly job: Omit<VerificationJob, 'deployedCode' | 'creationInput'> };

export type VerifyContractResult =
  | { readonly status: 'verified'; readonly address: Address; readonly saved: boolean; readonly contract: StoredContract; readonly ms: number }
  | {
      readonly status: 'failed';
      readonly address: Address;
      readonly reason: FailureReason | 'not-a-contract' | 'no-contract-store';
      readonly message: string;
      readonly ms: number;
    };

type Verified = Extract<VerificationOutcome, { status: 'verified' }>;

/** A verifier's (or matcher's) success as the contract store saves it. */
export function savedInputOf(outcome: Verified, address: Address, deployedBytecode: Hex, codeFormat: CodeFormat = 'standard-json'): SaveVerifiedInput {
  const args = outcome.constructorArguments.replace(/^0x/i, '');
  return {
    address,
    deployedBytecode,
    name: outcome.name,
    compilerVersion: outcome.compilerVersion,
    optimizationEnabled: outcome.optimization,
    optimizationRuns: outcome.optimizationRuns,
    evmVersion: outcome.evmVersion,
    compilerSettings: outcome.compilerSettings as JsonObject,
    codeFormat,
    filePath: outcome.file,
    sources: outcome.sources,
    abi: outcome.abi as readonly JsonValue[],
    match: outcome.match,
    creationMatch: outcome.creationMatch,
    hasImmutables: Object.keys(outcome.immutables).length > 0,
    libraries: outcome.libraries,
    constructorArguments: args === '' ? null : (`0x${args}` as Hex),
    licenseType: licenseTypeOf(outcome.license),
  };
}

const now = (): number => (typeof performance === 'undefined' ? Date.now() : performance.now());

/** Verify a created contract (its DataSource record) and save a match. */
export async function verifyRecord(contracts: ContractStore, record: ContractCodeRecord, using: VerifyWith): Promise<VerifyContractResult> {
  const start = now();
  const address = record.address;
  if (record.deployedBytecode.length <= 2) return { status: 'failed', address, reason: 'not-a-contract', message: 'The address is not a smart contract', ms: now() - start };
  const outcome =
    'artifacts' in using
      ? using.artifacts.match(record.deployedBytecode, record.creationBytecode)
      : await using.verifier.verify({
          ...using.job,
          deployedCode: record.deployedBytecode,
          ...(record.creationBytecode === null ? {} : { creationInput: record.creationBytecode }),
        });
  if (outcome.status === 'failed') return { status: 'failed', address, reason: outcome.reason, message: outcome.message, ms: now() - start };
  const codeFormat: CodeFormat = 'artifacts' in using || using.job.input.kind === 'standard-json' ? 'standard-json' : 'single-file';
  const saved = await contracts.saveVerified(verifiedContractOf(savedInputOf(outcome, address, record.deployedBytecode, codeFormat)));
  return { status: 'verified', address, saved: saved.saved, contract: saved.contract, ms: now() - start };
}

/**
 * Verify the contract at `address` of a chain (its store must have indexed the creation) and
 * save it into the chain's contract store.
 */
export async function verifyContract(chain: Pick<ChainConfig, 'store' | 'contracts'>, address: Address | string, using: VerifyWith): Promise<VerifyContractResult> {
  const at = address.toLowerCase() as Address;
  if (chain.contracts === undefined) return { status: 'failed', address: at, reason: 'no-contract-store', message: 'the chain has no contract store (ChainConfig.contracts)', ms: 0 };
  if (!/^0x[0-9a-f]{40}$/.test(at)) return { status: 'failed', address: at, reason: 'invalid-input', message: `not an address: ${address}`, ms: 0 };
  const [record] = await chain.store.getContracts([at]);
  if (record === undefined) return { status: 'failed', address: at, reason: 'not-a-contract', message: 'The address is not a smart contract (no creation of it is indexed)', ms: 0 };
  return verifyRecord(chain.contracts, record, using);
}
