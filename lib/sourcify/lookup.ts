/**
 * The verified contract an address runs on one chain (its own, or a bytecode twin's: Sourcify
 * answers for the code at the address), with the address's creation record: two batch queries.
 */
import type { ChainConfig } from '../chain-config.ts';
import { codeHashes } from '../contracts/lookup.ts';
import type { VerifiedContract } from '../contracts/records.ts';
import type { Address, ContractCodeRecord } from '../domain/records.ts';

export interface AddressLookup {
  /** null: no contract created there that the store saw */
  readonly record: ContractCodeRecord | null;
  readonly contract: VerifiedContract | undefined;
}

export async function lookupAddress(chain: ChainConfig, address: Address): Promise<AddressLookup> {
  const code = (await codeHashes(chain.store, [address])).get(address);
  if (code === undefined || chain.contracts === undefined) return { record: code?.record ?? null, contract: undefined };
  const [contract] = await chain.contracts.getVerified([code.hash]);
  return { record: code.record, contract };
}
