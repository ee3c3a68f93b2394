/** The InternalTransaction object, as lib/render/internal.ts renders it. */
import * as t from 'io-ts';
import { component } from '../openapi/jsonSchema.ts';
import { Address } from './address.ts';
import { Integer, IntegerString, Timestamp, nullable, TransactionHashCodec } from './scalars.ts';

export const InternalTransaction = component(
  'InternalTransaction',
  t.type({
    block_number: Integer,
    created_contract: nullable(Address),
    error: nullable(t.string),
    from: Address,
    gas_limit: IntegerString,
    index: Integer,
    success: t.boolean,
    timestamp: Timestamp,
    to: nullable(Address),
    transaction_hash: TransactionHashCodec,
    transaction_index: Integer,
    type: t.string,
    value: IntegerString,
  }),
);
