/** The address counters: `/addresses/{h}/tabs-counters` and `/addresses/{h}/counters`. */
import * as t from 'io-ts';
import { component } from '../openapi/jsonSchema.ts';
import { Integer, IntegerString } from './scalars.ts';

/** Rows per tab, each counted to at most 51 (51 = more than 50). */
export const AddressTabsCounters = component(
  'AddressTabsCounters',
  t.type({
    internal_transactions_count: Integer,
    logs_count: Integer,
    token_balances_count: Integer,
    token_transfers_count: Integer,
    transactions_count: Integer,
    validations_count: Integer,
    withdrawals_count: Integer,
  }),
);

/** `/addresses/{h}/counters`: the kept counters, decimal strings. */
export const AddressCounters = component(
  'AddressCounters',
  t.type({
    gas_usage_count: IntegerString,
    token_transfers_count: IntegerString,
    transactions_count: IntegerString,
    validations_count: IntegerString,
  }),
);
