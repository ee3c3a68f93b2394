/**
 * The contract store beside a test store: the SQL one over a SQL store's own connections
 * (the same database), the reference one beside the memory store; and a verified contract to save.
 */
import type { ContractStore } from '../../lib/contracts/store.ts';
import type { VerifiedContractInput } from '../../lib/contracts/records.ts';
import type { Address, Hash } from '../../lib/domain/records.ts';
import { createMemoryContractStore } from '../../adapters/memory/index.ts';
import { createSqlContractStore } from '../../adapters/sql/index.ts';

export function contractStoreBeside(store: object): ContractStore {
  // the SQL store itself: its writer and readers, its replicas, and its close (which stops the contract store's feed)
  if ('knex' in store) return createSqlContractStore(store as Parameters<typeof createSqlContractStore>[0]);
  return createMemoryContractStore();
}

export const codeHash = (n: number): Hash => `0x${n.toString(16).padStart(64, 'c')}` as Hash;

/** A standard-JSON verification of a contract named `name`, every field set. */
export function verified(o: Partial<VerifiedContractInput> & { readonly codeHash: Hash; readonly address: Address }): VerifiedContractInput {
  return {
    name: 'Token',
    language: 'solidity',
    compilerVersion: 'v0.8.24+commit.e11b9ed9',
    optimizationEnabled: true,
    optimizationRuns: 200,
    evmVersion: 'paris',
    compilerSettings: { optimizer: { enabled: true, runs: 200 }, evmVersion: 'paris', outputSelection: { '*': { '*': ['abi'] } } },
    codeFormat: 'standard-json',
    filePath: 'src/Token.sol',
    sources: { 'src/Token.sol': 'contract Token is Base {}', 'src/Base.sol': 'contract Base {}' },
    abi: [
      { type: 'constructor', stateMutability: 'nonpayable', inputs: [{ name: 'owner', type: 'address', internalType: 'address' }, { name: 'supply', type: 'uint256', internalType: 'uint256' }] },
      { type: 'function', name: 'totalSupply', stateMutability: 'view', inputs: [], outputs: [{ name: '', type: 'uint256', internalType: 'uint256' }] },
    ],
    match: 'full',
    creationMatch: 'full',
    hasImmutables: false,
    libraries: {},
    constructorArguments: null,
    licenseType: 'mit',
    verifiedAt: Date.parse('2023-11-14T23:00:00.123Z'),
    verifiedViaSourcify: false,
    verifiedViaEthBytecodeDb: false,
    verifiedViaVerifierAlliance: false,
    isBlueprint: false,
    certified: false,
    ...o,
  };
}
