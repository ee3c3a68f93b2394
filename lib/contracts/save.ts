/**
 * Saving a verified contract into a chain's contract store: the one function the verification
 * flows (and tests, and tools importing sources) call. The key is the runtime code's hash: pass
 * `codeHash`, or `deployedBytecode` to have it hashed.
 */
import type { ChainConfig } from '../chain-config.ts';
import type { Address, Hash, Hex } from '../domain/records.ts';
import { codeHashOf } from './codeHash.ts';
import type { VerifiedContractInput } from './records.ts';
import type { SaveOutcome } from './store.ts';

type Defaults =
  | 'codeHash'
  | 'address'
  | 'verifiedAt'
  | 'optimizationRuns'
  | 'evmVersion'
  | 'compilerSettings'
  | 'codeFormat'
  | 'creationMatch'
  | 'hasImmutables'
  | 'libraries'
  | 'constructorArguments'
  | 'licenseType'
  | 'verifiedViaSourcify'
  | 'verifiedViaEthBytecodeDb'
  | 'verifiedViaVerifierAlliance'
  | 'isBlueprint'
  | 'certified'
  | 'match'
  | 'language';

/** A verification as callers give it: the required facts, the rest defaulted. */
export type SaveVerifiedInput = Omit<VerifiedContractInput, Defaults> &
  Partial<Omit<VerifiedContractInput, 'address' | 'codeHash'>> & {
    readonly address: Address | string;
  } & ({ readonly codeHash: Hash } | { readonly deployedBytecode: Hex });

export class NoContractStoreError extends Error {
  constructor() {
    super('the chain has no contract store (ChainConfig.contracts)');
    this.name = 'NoContractStoreError';
  }
}

export class InvalidVerifiedContractError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidVerifiedContractError';
  }
}

const ADDRESS = /^0x[0-9a-f]{40}$/;
const HASH = /^0x[0-9a-f]{64}$/;
const HEX = /^0x([0-9a-f]{2})*$/;

/** The input completed with Blockscout's defaults and checked (lower-case hex, the main file among the sources). */
export function verifiedContractOf(input: SaveVerifiedInput, now: number = Date.now()): VerifiedContractInput {
  const codeHash = 'codeHash' in input ? input.codeHash.toLowerCase() : codeHashOf(input.deployedBytecode);
  if (codeHash === null || !HASH.test(codeHash)) throw new InvalidVerifiedContractError('a verified contract needs runtime code (or its keccak256 hash)');
  const address = input.address.toLowerCase();
  if (!ADDRESS.test(address)) throw new InvalidVerifiedContractError(`not an address: ${input.address}`);
  if (!Object.prototype.hasOwnProperty.call(input.sources, input.filePath)) {
    throw new InvalidVerifiedContractError(`the main file ${input.filePath} is not among the sources`);
  }
  const libraries: Record<string, Address> = {};
  for (const [name, lib] of Object.entries(input.libraries ?? {})) {
    const a = lib.toLowerCase();
    if (!ADDRESS.test(a)) throw new InvalidVerifiedContractError(`library ${name}: not an address: ${lib}`);
    libraries[name] = a as Address;
  }
  const args = input.constructorArguments === undefined || input.constructorArguments === null ? null : input.constructorArguments.toLowerCase();
  if (args !== null && !HEX.test(args)) throw new InvalidVerifiedContractError('constructor arguments: not 0x hex');
  const optimizationEnabled = input.optimizationEnabled;
  return {
    codeHash: codeHash as Hash,
    address: address as Address,
    name: input.name,
    language: input.language ?? 'solidity',
    compilerVersion: input.compilerVersion,
    optimizationEnabled,
    optimizationRuns: optimizationEnabled ? (input.optimizationRuns ?? 200) : null,
    evmVersion: input.evmVersion ?? 'default',
    compilerSettings: input.compilerSettings ?? null,
    codeFormat: input.codeFormat ?? 'standard-json',
    filePath: input.filePath,
    sources: { ...input.sources },
    abi: input.abi,
    match: input.match ?? 'full',
    creationMatch: input.creationMatch ?? null,
    hasImmutables: input.hasImmutables ?? false,
    libraries,
    constructorArguments: args === null || args === '0x' ? null : (args as Hex),
    licenseType: input.licenseType ?? 'none',
    verifiedAt: input.verifiedAt ?? now,
    verifiedViaSourcify: input.verifiedViaSourcify ?? false,
    verifiedViaEthBytecodeDb: input.verifiedViaEthBytecodeDb ?? false,
    verifiedViaVerifierAlliance: input.verifiedViaVerifierAlliance ?? false,
    isBlueprint: input.isBlueprint ?? false,
    certified: input.certified ?? false,
  };
}

/**
 * Save a verified contract into the chain's contract store (see ContractStore.saveVerified:
 * a full match replaces a partial one; otherwise what is stored stays). Throws
 * NoContractStoreError without a store, InvalidVerifiedContractError on a malformed input.
 */
export async function saveVerifiedContract(chain: Pick<ChainConfig, 'contracts'>, input: SaveVerifiedInput): Promise<SaveOutcome> {
  if (chain.contracts === undefined) throw new NoContractStoreError();
  return chain.contracts.saveVerified(verifiedContractOf(input));
}
