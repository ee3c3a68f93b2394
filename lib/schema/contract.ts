/**
 * Smart contracts as scoutkit renders them: every contract is unverified (source verification is a
 * later step), so the detail is Blockscout's unverified shape (plus `is_verified: false`) and the
 * list items carry nulls where a verified contract has compiler facts.
 */
import * as t from 'io-ts';
import { component } from '../openapi/jsonSchema.ts';
import { Address } from './address.ts';
import { NextPageParams } from './page.ts';
import { AddressHash, emptyList, HexString, Integer, IntegerString, nullable } from './scalars.ts';

export const SmartContract = component(
  'SmartContract',
  t.type({
    proxy_type: t.null,
    implementations: emptyList('proxies are not resolved'),
    conflicting_implementations: emptyList('proxies are not resolved'),
    /** null when the contract self-destructed during an internal creation */
    deployed_bytecode: nullable(HexString),
    /** the init code; null when unknown */
    creation_bytecode: nullable(HexString),
    creation_status: t.keyof({ success: null, selfdestructed: null }),
    is_verified: t.literal(false),
  }),
);

export const SmartContractListItem = component(
  'SmartContractListItem',
  t.type({
    address: Address,
    compiler_version: t.null,
    optimization_enabled: t.null,
    language: t.null,
    verified_at: t.null,
    has_constructor_args: t.null,
    license_type: t.null,
    certified: t.literal(false),
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
