/**
 * Verify one address and save the result: the address's code (from the chain's DataSource) is
 * matched by a CodeMatcher, a build's artifacts (no compile) or sources compiled by the engine,
 * and a match is saved into the chain's contract store (saveVerifiedContract's rules: a full
 * match replaces a partial one).
 */
import type { ChainConfig } from '../chain-config.ts';
import type { Address, ContractCodeRecord, Hex } from '../domain/records.ts';
import type { JsonObject, JsonValue } from '../json.ts';
import { licenseTypeOf } from './license.ts';
import type { CodeFormat, MatchKind, VerifiedContract as StoredContract } from './records.ts';
import { verifiedContractOf } from './save.ts';
import type { SaveVerifiedInput } from './save.ts';
import type { ContractStore } from './store.ts';

/**
 * How a code was verified: the engine's VerificationOutcome (lib/contracts/verifier.ts) with its
 * ABI as plain JSON, so that the public types name no viem type. `reason` is one of the
 * engine's FailureReason values (`mismatch`, `compiler-errors`, `unknown-compiler`, …).
 */
export type MatchOutcome =
  | {
      readonly status: 'verified';
      readonly name: string;
      readonly file: string;
      readonly abi: readonly unknown[];
      readonly compilerVersion: string;
      readonly compilerSettings: Readonly<Record<string, unknown>>;
      readonly sources: Readonly<Record<string, string>>;
      readonly match: MatchKind;
      readonly libraries: Readonly<Record<string, Address>>;
      /** hex without 0x ('' when none) */
      readonly constructorArguments: string;
      readonly immutables: Readonly<Record<string, Hex>>;
      readonly runtimeMatch: MatchKind | null;
      readonly creationMatch: MatchKind | null;
      /** SPDX identifier of the main file */
      readonly license: string | null;
      readonly optimization: boolean;
      readonly optimizationRuns: number | null;
      readonly evmVersion: string;
    }
  | { readonly status: 'failed'; readonly reason: string; readonly message: string; readonly errors?: readonly string[] };

/**
 * Matches a deployed code: a build's artifacts (adapters/solc createArtifactMatcher, no compile;
 * `loadArtifacts` of scoutkit/host), or sources compiled by a ContractVerifier.
 */
export interface CodeMatcher {
  /** how the sources were given (default standard-json) */
  readonly codeFormat?: CodeFormat;
  /** `creation`: the creation input (init code and constructor arguments) when known */
  match(deployed: Hex, creation: Hex | null): MatchOutcome | Promise<MatchOutcome>;
}

export type VerifyContractResult =
  | { readonly status: 'verified'; readonly address: Address; readonly saved: boolean; readonly contract: StoredContract; readonly ms: number }
  | {
      readonly status: 'failed';
      readonly address: Address;
      /** a MatchOutcome reason, or `not-a-contract`, `no-contract-store`, `invalid-input` */
      readonly reason: string;
      readonly message: string;
      readonly ms: number;
    };

type Verified = Extract<MatchOutcome, { status: 'verified' }>;

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
export async function verifyRecord(contracts: ContractStore, record: ContractCodeRecord, matcher: CodeMatcher): Promise<VerifyContractResult> {
  const start = now();
  const address = record.address;
  if (record.deployedBytecode.length <= 2) return { status: 'failed', address, reason: 'not-a-contract', message: 'The address is not a smart contract', ms: now() - start };
  const outcome = await matcher.match(record.deployedBytecode, record.creationBytecode);
  if (outcome.status === 'failed') return { status: 'failed', address, reason: outcome.reason, message: outcome.message, ms: now() - start };
  const saved = await contracts.saveVerified(verifiedContractOf(savedInputOf(outcome, address, record.deployedBytecode, matcher.codeFormat)));
  return { status: 'verified', address, saved: saved.saved, contract: saved.contract, ms: now() - start };
}

/**
 * Verify the contract at `address` of a chain (its store must have indexed the creation) with
 * `matcher` and save it into the chain's contract store.
 */
export async function verifyContract(chain: Pick<ChainConfig, 'store' | 'contracts'>, address: Address | string, matcher: CodeMatcher): Promise<VerifyContractResult> {
  const at = address.toLowerCase() as Address;
  if (chain.contracts === undefined) return { status: 'failed', address: at, reason: 'no-contract-store', message: 'the chain has no contract store (ChainConfig.contracts)', ms: 0 };
  if (!/^0x[0-9a-f]{40}$/.test(at)) return { status: 'failed', address: at, reason: 'invalid-input', message: `not an address: ${address}`, ms: 0 };
  const [record] = await chain.store.getContracts([at]);
  if (record === undefined) return { status: 'failed', address: at, reason: 'not-a-contract', message: 'The address is not a smart contract (no creation of it is indexed)', ms: 0 };
  return verifyRecord(chain.contracts, record, matcher);
}
