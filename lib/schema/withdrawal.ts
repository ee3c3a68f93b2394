/**
 * Beacon-chain withdrawals. The official Withdrawal schema has every field, three required;
 * each list sends its own subset, as Blockscout: the block list has no block_number/timestamp,
 * the address list no receiver.
 */
import * as t from 'io-ts';
import { component } from '../openapi/jsonSchema.ts';
import { Address } from './address.ts';
import { Integer, IntegerString, Timestamp } from './scalars.ts';

/** `/withdrawals` items. */
export const Withdrawal = component(
  'Withdrawal',
  t.type({ index: Integer, validator_index: Integer, block_number: Integer, receiver: Address, amount: IntegerString, timestamp: Timestamp }),
);

/** `/blocks/{h}/withdrawals` items. */
export const BlockWithdrawal = component('BlockWithdrawal', t.type({ index: Integer, validator_index: Integer, receiver: Address, amount: IntegerString }));

/** `/addresses/{h}/withdrawals` items. */
export const AddressWithdrawal = component(
  'AddressWithdrawal',
  t.type({ index: Integer, validator_index: Integer, block_number: Integer, amount: IntegerString, timestamp: Timestamp }),
);

/** `/withdrawals/counters`: both decimal strings. */
export const WithdrawalCounters = component('WithdrawalCounters', t.type({ withdrawals_count: IntegerString, withdrawals_sum: IntegerString }));
