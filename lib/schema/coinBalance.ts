/** A coin balance change (`/addresses/{h}/coin-balance-history` items). */
import * as t from 'io-ts';
import { component } from '../openapi/jsonSchema.ts';
import { DateString, Integer, IntegerString, Timestamp, nullable, TransactionHashCodec } from './scalars.ts';

export const CoinBalance = component(
  'CoinBalance',
  t.type({
    block_number: Integer,
    /** interpolated between the page's lowest and highest blocks, as Blockscout does */
    block_timestamp: Timestamp,
    delta: IntegerString,
    transaction_hash: nullable(TransactionHashCodec),
    value: IntegerString,
  }),
);

/** A daily closing balance (`/addresses/{h}/coin-balance-history-by-day` items). */
export const CoinBalanceByDay = component(
  'CoinBalanceByDay',
  t.type({ date: DateString, value: IntegerString }),
);

export const CoinBalanceHistoryByDay = t.type({ days: Integer, items: t.array(CoinBalanceByDay) });
