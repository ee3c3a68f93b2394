/** The Transaction object, as lib/render/transaction.ts renders it (lists and detail). */
import * as t from 'io-ts';
import { component } from '../openapi/jsonSchema.ts';
import { Address } from './address.ts';
import { DecodedInput } from './decoded.ts';
import { HexString, Integer, IntegerString, Timestamp, TransactionKindCodec, emptyList, nullable, TransactionHashCodec } from './scalars.ts';
import { TokenTransfer } from './transfer.ts';

export const Fee = component('Fee', t.type({ type: t.keyof({ maximum: null, actual: null }), value: nullable(IntegerString) }));

export const Transaction = component(
  'Transaction',
  t.type({
    authorization_list: emptyList('EIP-7702 authorizations are not indexed'),
    base_fee_per_gas: nullable(IntegerString),
    block_number: nullable(Integer),
    confirmation_duration: emptyList('the indexer has no mempool timing'),
    confirmations: Integer,
    created_contract: nullable(Address),
    decoded_input: nullable(DecodedInput),
    exchange_rate: t.null,
    fee: Fee,
    fhe_operations_count: Integer,
    from: Address,
    gas_limit: IntegerString,
    gas_price: nullable(IntegerString),
    gas_used: nullable(IntegerString),
    has_error_in_internal_transactions: nullable(t.boolean),
    hash: TransactionHashCodec,
    historic_exchange_rate: t.null,
    is_pending_update: nullable(t.boolean),
    max_fee_per_gas: nullable(IntegerString),
    max_priority_fee_per_gas: nullable(IntegerString),
    method: nullable(t.string),
    nonce: Integer,
    position: nullable(Integer),
    priority_fee: nullable(IntegerString),
    raw_input: HexString,
    result: t.string,
    /** lists: `{raw}` for a reverted transaction; detail: the decoded reason when it decodes */
    revert_reason: t.union([t.type({ raw: nullable(HexString) }), DecodedInput, t.null]),
    status: t.union([t.literal('ok'), t.literal('error'), t.null]),
    timestamp: nullable(Timestamp),
    to: nullable(Address),
    /** detail: the first 10 (log index ASC); lists: null */
    token_transfers: nullable(t.readonlyArray(TokenTransfer)),
    token_transfers_overflow: nullable(t.boolean),
    transaction_burnt_fee: nullable(IntegerString),
    transaction_tag: t.null,
    transaction_types: t.array(TransactionKindCodec),
    type: nullable(Integer),
    value: IntegerString,
  }),
);
