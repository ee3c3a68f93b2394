/** Stored contract code → API JSON (the unverified smart-contract shape). */
import type { ContractCodeRecord } from '../domain/records.ts';
import type * as t from 'io-ts';
import type { SmartContractListItem, UnverifiedSmartContract } from '../schema/contract.ts';
import { renderAddress } from './address.ts';
import type { RenderContext } from './context.ts';
import { EMPTY_HEX } from '../domain/hex.ts';

/**
 * The unverified smart-contract body (Blockscout's keys for a contract without a verified twin,
 * plus `is_verified: false`): a contract with no code left that an internal frame created
 * self-destructed; otherwise its code as the indexer read it at creation.
 */
/** the unverified smart-contract body, as its schema types it */
export type UnverifiedSmartContractJson = t.OutputOf<typeof UnverifiedSmartContract>;
/** a `/smart-contracts` item, as its schema types it */
export type SmartContractItemJson = t.OutputOf<typeof SmartContractListItem>;

export function renderSmartContract(c: ContractCodeRecord, createdByTransaction: boolean): UnverifiedSmartContractJson {
  const selfdestructed = c.deployedBytecode === EMPTY_HEX && !createdByTransaction;
  return {
    proxy_type: null,
    implementations: [],
    conflicting_implementations: [],
    deployed_bytecode: selfdestructed ? null : c.deployedBytecode,
    creation_bytecode: c.creationBytecode,
    creation_status: selfdestructed ? 'selfdestructed' : 'success',
    is_verified: false,
  };
}

export function renderSmartContractItem(c: ContractCodeRecord, ctx: Pick<RenderContext, 'addresses'>): SmartContractItemJson {
  return {
    address: renderAddress(c.address, ctx),
    compiler_version: null,
    optimization_enabled: null,
    language: null,
    verified_at: null,
    has_constructor_args: null,
    license_type: null,
    certified: false,
    reputation: 'ok',
    coin_balance: null,
    transactions_count: null,
    market_cap: null,
  };
}
