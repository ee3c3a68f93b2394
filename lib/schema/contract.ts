/**
 * Smart contracts as scoutkit renders them: a contract whose code a verified contract shares
 * has Blockscout's verified shape (its own verification, or a bytecode twin's); any other is
 * Blockscout's unverified shape (plus `is_verified: false`).
 */
import * as t from 'io-ts';
import { component, withSchema } from '../openapi/jsonSchema.ts';
import { Address, ProxyImplementations, ProxyTypeName } from './address.ts';
import { NextPageParams } from './page.ts';
import { AddressHash, AnyObject, emptyList, HexString, Integer, IntegerString, nullable, Timestamp } from './scalars.ts';

/** A contract without a verified contract for its code: Blockscout's unverified shape, plus `is_verified: false`. */
export const UnverifiedSmartContract = t.type({
  proxy_type: ProxyTypeName,
  implementations: ProxyImplementations,
  conflicting_implementations: emptyList('proxies are not resolved'),
  /** null when the contract self-destructed during an internal creation */
  deployed_bytecode: nullable(HexString),
  /** the init code; null when unknown */
  creation_bytecode: nullable(HexString),
  creation_status: t.keyof({ success: null, selfdestructed: null }),
  is_verified: t.literal(false),
});

/** A part of a decoded constructor argument pair: the value (a string or a list) or the ABI input (an object). */
const ConstructorArgPart = withSchema(new t.Type<unknown>('ConstructorArgPart', (u): u is unknown => true, t.success, t.identity), {
  anyOf: [{ type: 'string' }, { type: 'array' }, { type: 'object' }],
});

const VerifiedLanguage = t.keyof({ solidity: null, vyper: null, yul: null });

/**
 * A verified contract, or a bytecode twin of one (`is_verified: false`, the twin's address in
 * `verified_twin_address_hash`, no constructor arguments): Blockscout's verified shape.
 */
export const VerifiedSmartContract = t.type({
  verified_twin_address_hash: nullable(AddressHash),
  is_verified: t.boolean,
  is_changed_bytecode: t.boolean,
  is_partially_verified: t.boolean,
  is_fully_verified: t.boolean,
  is_verified_via_sourcify: t.boolean,
  is_verified_via_eth_bytecode_db: t.boolean,
  is_verified_via_verifier_alliance: t.boolean,
  proxy_type: ProxyTypeName,
  implementations: ProxyImplementations,
  conflicting_implementations: t.null,
  sourcify_repo_url: t.null,
  can_be_visualized_via_sol2uml: t.boolean,
  name: t.string,
  compiler_version: t.string,
  optimization_enabled: t.boolean,
  optimization_runs: nullable(Integer),
  evm_version: t.string,
  verified_at: Timestamp,
  abi: t.array(AnyObject),
  source_code: t.string,
  /** null for a flattened (single-file) verification */
  file_path: nullable(t.string),
  additional_sources: t.array(t.type({ file_path: t.string, source_code: t.string })),
  compiler_settings: nullable(AnyObject),
  external_libraries: t.array(t.type({ name: t.string, address_hash: AddressHash })),
  /** as stored, hex; null for a twin or without arguments */
  constructor_args: nullable(t.string),
  /** `[value, abiInput]` pairs; null for a twin, without a constructor with inputs, or undecodable */
  decoded_constructor_args: nullable(t.array(t.array(ConstructorArgPart))),
  language: VerifiedLanguage,
  license_type: t.string,
  certified: t.boolean,
  is_blueprint: t.boolean,
  deployed_bytecode: nullable(HexString),
  creation_bytecode: nullable(HexString),
  creation_status: t.keyof({ success: null, selfdestructed: null }),
});

export const SmartContract = component('SmartContract', t.union([VerifiedSmartContract, UnverifiedSmartContract]));

/** A list item: a verified contract's compiler facts (all null for the unverified contracts listed without a contract store). */
export const SmartContractListItem = component(
  'SmartContractListItem',
  t.type({
    address: Address,
    compiler_version: nullable(t.string),
    optimization_enabled: nullable(t.boolean),
    language: nullable(VerifiedLanguage),
    verified_at: nullable(Timestamp),
    has_constructor_args: nullable(t.boolean),
    license_type: nullable(t.string),
    certified: t.boolean,
    reputation: t.literal('ok'),
    coin_balance: t.null,
    transactions_count: t.null,
    market_cap: t.null,
  }),
);

export const SmartContractCounters = component(
  'SmartContractCounters',
  t.type({
    smart_contracts: IntegerString,
    new_smart_contracts_24h: IntegerString,
    verified_smart_contracts: IntegerString,
    new_verified_smart_contracts_24h: IntegerString,
  }),
);

export const AuditReports = component(
  'AuditReports',
  t.type({ items: emptyList('audit reports are not collected'), next_page_params: NextPageParams }),
);

const hex = HexString;

/** A call frame's action (Parity format). */
const CallAction = t.intersection([
  t.type({ callType: t.keyof({ call: null, callcode: null, delegatecall: null, staticcall: null }), from: AddressHash, gas: hex, input: hex, value: hex }),
  t.partial({ to: AddressHash }),
]);
/** A create frame's action: the init code under `init`. */
const CreateAction = t.type({ from: AddressHash, gas: hex, init: hex, value: hex });
/** A self-destruct's action: the contract, its balance and the beneficiary. */
const SuicideAction = t.intersection([t.type({ address: AddressHash, balance: hex }), t.partial({ refundAddress: AddressHash })]);

const CallResult = t.type({ gasUsed: hex, output: hex });
const CreateResult = t.intersection([t.type({ code: hex, gasUsed: hex }), t.partial({ address: AddressHash })]);

const place = { subtraces: Integer, traceAddress: t.array(Integer) };

/**
 * One trace of raw-trace, Parity style (Blockscout's `internal_transactions_to_raw`): a call, a
 * create (create2) or a self-destruct (`suicide`); a failed call or create carries `error`
 * (the node's text) instead of `result`.
 */
export const RawTraceItem = component(
  'RawTraceItem',
  t.union([
    t.intersection([t.type({ action: CallAction, type: t.literal('call'), ...place }), t.partial({ result: CallResult, error: t.string })]),
    t.intersection([
      t.type({ action: CreateAction, type: t.keyof({ create: null, create2: null }), ...place }),
      t.partial({ result: CreateResult, error: t.string }),
    ]),
    t.type({ action: SuicideAction, type: t.literal('suicide'), ...place }),
  ]),
);

/** The Parity-style trace array of a mined transaction's frames, depth-first; `[]` for a pending one. */
export const RawTrace = t.array(RawTraceItem);
