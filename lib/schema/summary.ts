/**
 * A transaction's summary (Blockscout 11.2.7 and Pro API `Summary`, the transaction-interpreter's
 * answer): templates whose `{name}`s are variables — `string`, `currency` (a decimal string),
 * `method` (a method name), `address` (the Address object), `token` (the Token object).
 * `{native}` names the chain's coin and has no variable (the frontend prints the coin's symbol).
 */
import * as t from 'io-ts';
import { component } from '../openapi/jsonSchema.ts';
import { Address } from './address.ts';
import { Token } from './token.ts';

export const SummaryVariable = t.type({
  type: t.union([t.literal('string'), t.literal('currency'), t.literal('method'), t.literal('address'), t.literal('token')]),
  value: t.union([t.string, Address, Token]),
});

export const SummaryTemplate = t.type({
  summary_template: t.string,
  summary_template_variables: t.record(t.string, SummaryVariable),
});

export const Summary = component(
  'Summary',
  t.type({
    success: t.boolean,
    data: t.type({ summaries: t.array(SummaryTemplate) }),
  }),
);
