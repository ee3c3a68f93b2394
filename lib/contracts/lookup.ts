/**
 * Which verified contract each address runs: its code (the DataSource's contract records, one
 * batch) hashed and looked up in the contract store (one batch). An address is the contract's
 * own when it is the address first verified; any other address with the same code is a
 * bytecode twin (Blockscout shows those with `is_verified: false` and the twin's sources).
 */
import type { Address, ContractCodeRecord, Hash } from '../domain/records.ts';
import type { DataSource } from '../ports.ts';
import { codeHashOf } from './codeHash.ts';
import type { VerifiedContract } from './records.ts';
import type { ContractStore } from './store.ts';

export interface AddressVerification {
  readonly contract: VerifiedContract;
  /** true: verified at this address; false: a bytecode twin of `contract.address` */
  readonly own: boolean;
}

/** Code hashes by creation: a contract's creation record never changes its code (a reorg makes a new record, with another block hash). */
const hashes = new Map<string, Hash | null>();
const MAX_MEMO = 20_000;

function hashOf(c: ContractCodeRecord): Hash | null {
  const key = `${c.address}:${c.blockHash}:${c.transactionHash}:${c.deployedBytecode.length}`;
  let h = hashes.get(key);
  if (h === undefined) {
    h = codeHashOf(c.deployedBytecode);
    if (hashes.size >= MAX_MEMO) hashes.clear();
    hashes.set(key, h);
  }
  return h;
}

/** The code hash of each address the DataSource saw created (with code), and the records. */
export async function codeHashes(ds: DataSource, addresses: readonly Address[]): Promise<Map<Address, { readonly hash: Hash; readonly record: ContractCodeRecord }>> {
  const out = new Map<Address, { readonly hash: Hash; readonly record: ContractCodeRecord }>();
  if (addresses.length === 0) return out;
  for (const record of await ds.getContracts([...new Set(addresses)])) {
    const hash = hashOf(record);
    if (hash !== null) out.set(record.address, { hash, record });
  }
  return out;
}

/** The verification of each address that has one (own or twin): two batch queries, whatever the number of addresses. */
export async function verifiedByAddress(
  ds: DataSource,
  store: ContractStore,
  addresses: readonly Address[],
): Promise<Map<Address, AddressVerification>> {
  const out = new Map<Address, AddressVerification>();
  const codes = await codeHashes(ds, addresses);
  if (codes.size === 0) return out;
  const found = await store.getVerified([...new Set([...codes.values()].map((c) => c.hash))]);
  const byHash = new Map(found.map((c) => [c.codeHash, c]));
  for (const [address, { hash }] of codes) {
    const contract = byHash.get(hash);
    if (contract !== undefined) out.set(address, { contract, own: contract.address === address });
  }
  return out;
}
