/**
 * Verified contracts and verification jobs: what a contract store holds (lib/contracts/store.ts).
 *
 * A verified contract is keyed by the keccak256 of its runtime (deployed) code, not by address:
 * every address whose code hashes the same is the same contract (Blockscout's "bytecode twins",
 * which it finds by the code's md5), and a reorg that re-creates the same code at the same
 * address leaves it verified. Conventions as lib/domain/records.ts: lower-case hex, unix
 * milliseconds for the store's own times.
 */
import type { Address, Hash, Hex } from '../domain/records.ts';
import type { JsonObject, JsonValue } from '../json.ts';

/** The languages a verified contract may be written in (Blockscout's `language`, as it lists them for verification). */
export const CONTRACT_LANGUAGES = ['solidity', 'vyper', 'yul'] as const;
export type ContractLanguage = (typeof CONTRACT_LANGUAGES)[number];

/** full: the metadata hash matched too; partial: everything but the metadata (CBOR auxdata) matched. */
export const MATCH_KINDS = ['full', 'partial'] as const;
export type MatchKind = (typeof MATCH_KINDS)[number];

/** How the sources were submitted: one flattened file, Solidity standard JSON, or several files. */
export const CODE_FORMATS = ['single-file', 'standard-json', 'multi-part'] as const;
export type CodeFormat = (typeof CODE_FORMATS)[number];

/** Blockscout's license names and numbers (`/smart-contracts/verification/config` `license_types`). */
export const LICENSE_TYPES = {
  none: 1,
  unlicense: 2,
  mit: 3,
  gnu_gpl_v2: 4,
  gnu_gpl_v3: 5,
  gnu_lgpl_v2_1: 6,
  gnu_lgpl_v3: 7,
  bsd_2_clause: 8,
  bsd_3_clause: 9,
  mpl_2_0: 10,
  osl_3_0: 11,
  apache_2_0: 12,
  gnu_agpl_v3: 13,
  bsl_1_1: 14,
} as const;
export type LicenseType = keyof typeof LICENSE_TYPES;

/** A verified contract as it is saved (the store assigns `id` and `verifiedAt` keeps what the caller gives). */
export interface VerifiedContractInput {
  /** keccak256 of the deployed (runtime) code: the key */
  readonly codeHash: Hash;
  /** the address it was first verified at */
  readonly address: Address;
  readonly name: string;
  readonly language: ContractLanguage;
  /** as solc names its builds: `v0.8.24+commit.e11b9ed9` */
  readonly compilerVersion: string;
  readonly optimizationEnabled: boolean;
  /** the optimizer's runs; null when the optimizer is off */
  readonly optimizationRuns: number | null;
  /** `default` when the settings name none */
  readonly evmVersion: string;
  /** the standard-JSON `settings` object; null for single-file submissions */
  readonly compilerSettings: JsonObject | null;
  readonly codeFormat: CodeFormat;
  /** the main file: a key of `sources` */
  readonly filePath: string;
  /** every source file, path → content (the main file among them) */
  readonly sources: Readonly<Record<string, string>>;
  /** the contract's ABI (JSON) */
  readonly abi: readonly JsonValue[];
  readonly match: MatchKind;
  /** how the creation code matched: full, partial, or null when it was not compared */
  readonly creationMatch: MatchKind | null;
  /** whether the runtime code has immutables (filled in at deployment, so masked when matching) */
  readonly hasImmutables: boolean;
  /** linked libraries: name (`file:Name` or `Name`) → address */
  readonly libraries: Readonly<Record<string, Address>>;
  /** ABI-encoded constructor arguments, `0x` hex; null when there are none */
  readonly constructorArguments: Hex | null;
  readonly licenseType: LicenseType;
  /** when it was verified (unix ms) */
  readonly verifiedAt: number;
  /** where the verification came from, as Blockscout flags it (all false: verified here) */
  readonly verifiedViaSourcify: boolean;
  readonly verifiedViaEthBytecodeDb: boolean;
  readonly verifiedViaVerifierAlliance: boolean;
  /** an ERC-5202 blueprint (Vyper) */
  readonly isBlueprint: boolean;
  readonly certified: boolean;
}

/** A verified contract as the store holds it: `id` orders verifications (first saved, lowest). */
export interface VerifiedContract extends VerifiedContractInput {
  readonly id: number;
}

/** A verification job's state: pending (queued or running), pass or fail. */
export const JOB_STATES = ['pending', 'pass', 'fail'] as const;
export type JobState = (typeof JOB_STATES)[number];

/**
 * What a job was submitted as: the API v2 method (`verification/via/{method}`), Etherscan's
 * `verifysourcecode` code format, Sourcify's inputs, or the proxy check (`verifyproxycontract`).
 */
export const JOB_INPUT_KINDS = [
  'flattened-code',
  'standard-input',
  'multi-part',
  'vyper-code',
  'vyper-multi-part',
  'vyper-standard-input',
  'etherscan-single-file',
  'etherscan-standard-json',
  'sourcify-standard-json',
  'sourcify-metadata',
  'proxy-check',
] as const;
export type JobInputKind = (typeof JOB_INPUT_KINDS)[number];

/** A verification job, readable from every host that shares the store (`checkverifystatus`). */
export interface VerificationJob {
  /** the GUID clients poll with */
  readonly uid: string;
  readonly address: Address;
  /** a hash of what was submitted: the same address and input run once */
  readonly inputHash: Hash;
  /** what was submitted; null for a job recorded before kinds were (SQL migration 025) */
  readonly inputKind: JobInputKind | null;
  readonly state: JobState;
  /** why it failed (or a note on success); null while pending */
  readonly message: string | null;
  /** unix ms */
  readonly createdAt: number;
  readonly updatedAt: number;
}
