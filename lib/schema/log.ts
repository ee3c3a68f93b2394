/** The Log object, as lib/render/log.ts renders it. */
import * as t from 'io-ts';
import { component } from '../openapi/jsonSchema.ts';
import { Address } from './address.ts';
import { DecodedLog } from './decoded.ts';
import { HexString, Integer, Timestamp, nullable, TransactionHashCodec, BlockHashCodec } from './scalars.ts';

export const Log = component(
  'Log',
  t.type({
    address: Address,
    block_hash: BlockHashCodec,
    block_number: Integer,
    block_timestamp: Timestamp,
    data: HexString,
    decoded: nullable(DecodedLog),
    index: Integer,
    smart_contract: t.null,
    /** always four, null-padded */
    topics: t.array(nullable(HexString)),
    transaction_hash: TransactionHashCodec,
  }),
);
