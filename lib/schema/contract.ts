/**
 * Smart contracts as scoutkit renders them: every contract is unverified (source verification is a
 * later step), so the detail is Blockscout's unverified shape (plus `is_verified: false`) and the
 * list items carry nulls where a verified contract has compiler facts.
 */
import * as t from 'io-ts';
import { component } from '../openapi/jsonSchema.ts';
import { Address } from './address.ts';
import { NextPageParams } from './page.ts';
import { AddressHash, AnyObject, emptyList, HexString, IntegerString, nullable } from './scalars.ts';

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

/**
 * One callTracer frame as the node reports it (hex quantities, lower-case addresses); absent
 * fields are left out. `calls` nests frames of the same shape.
 */
export const CallTracerFrame = component(
  'CallTracerFrame',
  t.intersection([
    t.type({ type: t.string, from: AddressHash, input: HexString }),
    t.partial({
      to: AddressHash,
      value: HexString,
      gas: HexString,
      gasUsed: HexString,
      output: HexString,
      error: t.string,
      revertReason: t.string,
      calls: t.array(AnyObject),
    }),
  ]),
);

/** The node's callTracer tree of a mined transaction; `[]` for a pending one. */
export const RawTrace = t.union([CallTracerFrame, emptyList('a pending transaction has no trace')]);
