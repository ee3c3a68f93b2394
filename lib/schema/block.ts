/** The Block object, as lib/render/block.ts renders it (lists and detail). */
import * as t from 'io-ts';
import { component } from '../openapi/jsonSchema.ts';
import { Address } from './address.ts';
import { HexString, Integer, IntegerString, Timestamp, emptyList, nullable, BlockHashCodec } from './scalars.ts';

export const Block = component(
  'Block',
  t.type({
    base_fee_per_gas: nullable(IntegerString),
    burnt_fees: IntegerString,
    burnt_fees_percentage: nullable(t.number),
    difficulty: nullable(IntegerString),
    gas_limit: IntegerString,
    gas_target_percentage: t.number,
    gas_used: IntegerString,
    gas_used_percentage: t.number,
    hash: BlockHashCodec,
    height: Integer,
    /** detail only; null in lists */
    internal_transactions_count: nullable(Integer),
    is_pending_update: t.boolean,
    miner: Address,
    nonce: HexString,
    parent_hash: BlockHashCodec,
    priority_fee: IntegerString,
    rewards: emptyList('block rewards are not indexed'),
    size: nullable(Integer),
    timestamp: Timestamp,
    total_difficulty: nullable(IntegerString),
    transaction_fees: IntegerString,
    transactions_count: Integer,
    type: t.keyof({ block: null, reorg: null, uncle: null }),
    uncles_hashes: t.array(t.type({ hash: BlockHashCodec })),
    /** detail only; null in lists */
    withdrawals_count: nullable(Integer),
  }),
);
