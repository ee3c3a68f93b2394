/**
 * Verification of a contract's source against the chain's code: the job, its outcome and the
 * port that runs it (adapters/solc implements it with solc-js in worker threads). Pure types and
 * the pure helpers every implementation shares (single-file → standard JSON, the SPDX license).
 */
import type { Abi } from 'abitype';
import type { Address, Hex } from '../domain/records.ts';

/** solc's standard JSON input (only the parts the verifier reads are typed) */
export interface StandardJsonInput {
  readonly language: string;
  readonly sources: Readonly<Record<string, { readonly content: string }>>;
  readonly settings?: Readonly<Record<string, unknown>>;
}

/** A single Solidity file with the settings Etherscan's `solidity-single-file` form sends. */
export interface SingleFileInput {
  readonly source: string;
  readonly optimization: boolean;
  /** default 200 when optimization is on */
  readonly runs?: number;
  /** `default` or absent: the compiler's default */
  readonly evmVersion?: string;
  readonly viaIR?: boolean;
}

export interface VerificationJob {
  readonly language: 'solidity' | 'vyper';
  /** standard JSON (an object, or its text as sent) or one file with its settings */
  readonly input: { readonly kind: 'standard-json'; readonly json: StandardJsonInput | string } | ({ readonly kind: 'single-file' } & SingleFileInput);
  /** `v0.8.26+commit.8a97fa7a`, `0.8.26+commit.8a97fa7a` or `0.8.26` */
  readonly compilerVersion: string;
  /** `path/File.sol:Name` or `Name`; '' (API v2's multi-part form): whichever compiled contract matches */
  readonly contractName: string;
  /** library addresses by `Name` or `path/File.sol:Name`; missing ones are read off the deployed code */
  readonly libraries?: Readonly<Record<string, Address>>;
  /** hex (with or without 0x); recovered from the creation input when absent */
  readonly constructorArguments?: string;
  /** the deployed (runtime) code at the address */
  readonly deployedCode: Hex;
  /** the creation transaction's input (or the internal creation's init code), when known */
  readonly creationInput?: Hex;
}

export type MatchKind = 'full' | 'partial';

export interface VerifiedContract {
  readonly name: string;
  /** the source file holding it, e.g. `src/Token.sol` */
  readonly file: string;
  readonly abi: Abi;
  /** the compiler's long version, e.g. `v0.8.26+commit.8a97fa7a` */
  readonly compilerVersion: string;
  /** the settings as submitted (standard JSON) or built from the single-file form */
  readonly compilerSettings: Readonly<Record<string, unknown>>;
  readonly sources: Readonly<Record<string, string>>;
  readonly match: MatchKind;
  /** every linked library, given or read off the deployed code, by `file:Name` */
  readonly libraries: Readonly<Record<string, Address>>;
  /** hex without 0x ('' when none) */
  readonly constructorArguments: string;
  /** immutable values read off the deployed code, by AST id */
  readonly immutables: Readonly<Record<string, Hex>>;
  /** how each code compared: null when not compared (no creation input) or not matching */
  readonly runtimeMatch: MatchKind | null;
  readonly creationMatch: MatchKind | null;
  /** the SPDX identifier of the contract's file, null when it has none */
  readonly license: string | null;
  readonly optimization: boolean;
  readonly optimizationRuns: number | null;
  readonly evmVersion: string;
}

export type FailureReason =
  /** compiled fine, but the code does not match (Blockscout: "Fail - Unable to verify") */
  | 'mismatch'
  | 'compiler-errors'
  | 'contract-not-found'
  | 'unknown-compiler'
  | 'invalid-input'
  | 'unsupported-language'
  | 'constructor-arguments'
  | 'timeout'
  | 'out-of-memory'
  /** the queue is full: try again later */
  | 'busy';

export type VerificationOutcome =
  | ({ readonly status: 'verified' } & VerifiedContract)
  | { readonly status: 'failed'; readonly reason: FailureReason; readonly message: string; readonly errors?: readonly string[] };

/** Blockscout's answer for a failed verification (checkverifystatus) */
export const UNABLE_TO_VERIFY = 'Fail - Unable to verify';

/** A verifier's text when it has no compiler for the version: `Compiler v0.8.26 is not available (<why>): <what to do>`. */
export const compilerUnavailableText = (version: string, why: string, todo: string): string => `Compiler ${version} is not available (${why}): ${todo}`;

/** A failure's text (`Fail - Unable to verify: …` or bare) that says the compiler was not at hand: nothing was compared. */
export const isCompilerUnavailable = (message: string): boolean => /^(?:Fail - Unable to verify: )?Compiler v\S+ is not available \(/.test(message);

export interface ContractVerifier {
  verify(job: VerificationJob): Promise<VerificationOutcome>;
  /** true while a new job would be refused as busy (its queue is full): submissions are then refused at once */
  busy?(): boolean;
  /** the Solidity compiler versions at hand (`v0.8.26+commit.8a97fa7a`), newest first: API v2's verification config lists them */
  compilerVersions?(): Promise<readonly string[]>;
  /** stop the workers (pending jobs fail) */
  close(): Promise<void>;
}

export const failure = (reason: FailureReason, message: string, errors?: readonly string[]): VerificationOutcome =>
  errors === undefined ? { status: 'failed', reason, message } : { status: 'failed', reason, message, errors };

/** `path:Name` → { path, name }; `Name` → { name } */
export function splitContractName(contractName: string): { readonly path?: string; readonly name: string } {
  const at = contractName.lastIndexOf(':');
  return at < 0 ? { name: contractName.trim() } : { path: contractName.slice(0, at).trim(), name: contractName.slice(at + 1).trim() };
}

/** The standard JSON solc would get for a single file (named `<Name>.sol`, as Blockscout names flattened code). */
export function singleFileToStandardJson(name: string, input: SingleFileInput): StandardJsonInput {
  const evm = input.evmVersion !== undefined && input.evmVersion !== '' && input.evmVersion !== 'default' ? { evmVersion: input.evmVersion } : {};
  return {
    language: 'Solidity',
    sources: { [`${name}.sol`]: { content: input.source } },
    settings: {
      optimizer: { enabled: input.optimization, runs: input.runs ?? 200 },
      ...evm,
      ...(input.viaIR === true ? { viaIR: true } : {}),
      outputSelection: { '*': { '*': ['*'] } },
    },
  };
}

/** The `SPDX-License-Identifier` of a source text, or null. */
export function spdxLicense(source: string): string | null {
  const m = /SPDX-License-Identifier:\s*([A-Za-z0-9.+\-() ]+?)\s*(?:\*\/|$)/m.exec(source);
  return m?.[1] !== undefined && m[1] !== '' ? m[1] : null;
}

/** `v0.8.26+commit.8a97fa7a` / `0.8.26` → its parts; null when it is no solc version */
export function parseCompilerVersion(version: string): { readonly semver: string; readonly commit?: string } | null {
  const m = /^v?(\d+\.\d+\.\d+)(?:-[0-9A-Za-z.-]+)?(?:\+commit\.([0-9a-f]{8}))?(?:\.[A-Za-z0-9.-]+)?$/.exec(version.trim());
  if (m?.[1] === undefined) return null;
  return m[2] === undefined ? { semver: m[1] } : { semver: m[1], commit: m[2] };
}
