/**
 * ERC-4337 user operations as Blockscout's `/proxy/account-abstraction/*` paths answer them
 * (its user-ops-indexer's bodies, addresses replaced by Address objects): the official
 * UserOperation, UserOperationInList and AccountAbstractionStatus schemas.
 */
import * as t from 'io-ts';
import { ENTRY_POINT_VERSIONS, SPONSOR_TYPES } from '../domain/userOperations.ts';
import { component } from '../openapi/jsonSchema.ts';
import { Address } from './address.ts';
import { DecodedInput } from './decoded.ts';
import { NextPageParams } from './page.ts';
import { AddressHash, FullHash, HexString, Integer, IntegerString, Timestamp, nullable } from './scalars.ts';

const keys = <K extends string>(values: readonly K[]) => t.keyof(Object.fromEntries(values.map((k) => [k, null])) as Record<K, null>);
export const EntryPointVersionCodec = keys(ENTRY_POINT_VERSIONS);
export const SponsorTypeCodec = keys(SPONSOR_TYPES);

/** `raw` of a v0.6 operation: the struct as sent, numbers as decimal strings. */
export const UserOperationRawV06 = t.type({
  sender: AddressHash,
  nonce: IntegerString,
  init_code: HexString,
  call_data: HexString,
  call_gas_limit: IntegerString,
  verification_gas_limit: IntegerString,
  pre_verification_gas: IntegerString,
  max_fee_per_gas: IntegerString,
  max_priority_fee_per_gas: IntegerString,
  paymaster_and_data: HexString,
  signature: HexString,
});
/** `raw` of a v0.7+ operation: the packed form (gas limits and fees packed in 32 bytes each). */
export const UserOperationRawV07 = t.type({
  sender: AddressHash,
  nonce: IntegerString,
  init_code: HexString,
  call_data: HexString,
  account_gas_limits: FullHash,
  pre_verification_gas: IntegerString,
  gas_fees: FullHash,
  paymaster_and_data: HexString,
  signature: HexString,
});

export const UserOperation = component(
  'UserOperation',
  t.type({
    hash: FullHash,
    sender: Address,
    /** 32-byte hex */
    nonce: FullHash,
    call_data: HexString,
    call_gas_limit: IntegerString,
    verification_gas_limit: IntegerString,
    pre_verification_gas: IntegerString,
    max_fee_per_gas: IntegerString,
    max_priority_fee_per_gas: IntegerString,
    signature: HexString,
    raw: t.union([UserOperationRawV06, UserOperationRawV07]),
    aggregator: nullable(AddressHash),
    aggregator_signature: nullable(HexString),
    entry_point: Address,
    entry_point_version: EntryPointVersionCodec,
    transaction_hash: FullHash,
    block_number: IntegerString,
    block_hash: FullHash,
    bundler: Address,
    bundle_index: Integer,
    index: Integer,
    factory: nullable(Address),
    paymaster: nullable(Address),
    status: t.boolean,
    revert_reason: nullable(HexString),
    gas: IntegerString,
    gas_price: IntegerString,
    gas_used: IntegerString,
    sponsor_type: SponsorTypeCodec,
    user_logs_start_index: Integer,
    user_logs_count: Integer,
    fee: IntegerString,
    consensus: nullable(t.boolean),
    timestamp: nullable(Timestamp),
    execute_target: nullable(Address),
    execute_call_data: nullable(HexString),
    decoded_call_data: nullable(DecodedInput),
    decoded_execute_call_data: nullable(DecodedInput),
  }),
);

export const UserOperationInList = component(
  'UserOperationInList',
  t.type({
    hash: FullHash,
    address: Address,
    entry_point: Address,
    entry_point_version: EntryPointVersionCodec,
    transaction_hash: FullHash,
    block_number: IntegerString,
    status: t.boolean,
    fee: IntegerString,
    timestamp: nullable(Timestamp),
  }),
);

/** A list of the service: `next_page_params` `{page_token, page_size}` or null. */
export const servicePage = <C extends t.Mixed>(item: C) => t.type({ items: t.readonlyArray(item), next_page_params: NextPageParams });

const IndexerStatus = t.type({ enabled: t.boolean, live: t.boolean, past_db_logs_indexing_finished: t.boolean, past_rpc_logs_indexing_finished: t.boolean });
export const AccountAbstractionStatus = component('AccountAbstractionStatus', t.type({ finished_past_indexing: t.boolean, v06: IndexerStatus, v07_v08: IndexerStatus }));

export const Bundle = component(
  'Bundle',
  t.type({ transaction_hash: FullHash, bundler: Address, block_number: IntegerString, bundle_index: Integer, timestamp: Timestamp, total_ops: Integer }),
);

export const Bundler = component('Bundler', t.type({ address: Address, total_bundles: Integer, total_ops: Integer }));
export const Paymaster = component('Paymaster', t.type({ address: Address, total_ops: Integer }));
export const Factory = component('Factory', t.type({ address: Address, total_accounts: Integer }));

export const Account = component(
  'Account',
  t.type({
    address: Address,
    factory: nullable(Address),
    creation_transaction_hash: nullable(FullHash),
    creation_op_hash: nullable(FullHash),
    creation_timestamp: nullable(Timestamp),
    total_ops: Integer,
  }),
);
