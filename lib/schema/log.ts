/** The Log object, as lib/render/log.ts renders it. */
import * as t from 'io-ts';
import { component } from '../openapi/jsonSchema.ts';
import { Address } from './address.ts';
import { DecodedLog } from './decoded.ts';
import { FullHash, HexString, Integer, Timestamp, nullable } from './scalars.ts';

export const Log = component(
  'Log',
  t.type({
    address: Address,
    block_hash: FullHash,
    block_number: Integer,
    block_timestamp: Timestamp,
    data: HexString,
    decoded: nullable(DecodedLog),
    index: Integer,
    smart_contract: t.null,
    /** always four, null-padded */
    topics: t.array(nullable(HexString)),
    transaction_hash: FullHash,
  }),
);
