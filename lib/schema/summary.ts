/**
 * A transaction's summary (Blockscout 11.2.7 and Pro API `Summary`, the transaction-interpreter's
 * answer): templates whose `{name}`s are variables — `string`, `currency` (a decimal string),
 * `method` (a method name), `address` (the Address object), `token` (the Token object).
 * `{native}` names the chain's coin and has no variable (the frontend prints the coin's symbol).
 */
import * as t from 'io-ts';
import { component } from '../openapi/jsonSchema.ts';
import { Address } from './address.ts';
import { DecodedInput } from './decoded.ts';
import { InternalTransaction } from './internal.ts';
import { Log } from './log.ts';
import { FullHash, HexString, Integer, IntegerString, TransactionKindCodec, nullable } from './scalars.ts';
import { Token } from './token.ts';
import { TokenTransfer } from './transfer.ts';

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

/**
 * What Blockscout sends its transaction-interpreter (`just_request_body=true`): the transaction
 * with its decoded input, token transfers, internal transactions and logs, and the chain id.
 */
export const SummaryJustRequestBody = component(
  'SummaryJustRequestBody',
  t.type({
    data: t.type({
      to: nullable(Address),
      from: nullable(Address),
      hash: FullHash,
      type: nullable(Integer),
      value: IntegerString,
      method: nullable(t.string),
      status: t.string,
      transaction_types: t.array(TransactionKindCodec),
      raw_input: HexString,
      decoded_input: nullable(DecodedInput),
      token_transfers: t.array(TokenTransfer),
      internal_transactions: t.array(InternalTransaction),
    }),
    logs_data: t.type({ items: t.array(Log) }),
    chain_id: nullable(Integer),
  }),
);
