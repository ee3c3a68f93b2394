/** The Block object, with fees and percentages. */
import type { BlockRecord } from '../domain/records.ts';
import type * as t from 'io-ts';
import type { Block } from '../schema/block.ts';
import { renderAddress } from './address.ts';
import type { RenderContext } from './context.ts';
import { dec, decOrNull, iso } from './format.ts';

/** EIP-1559 elasticity multiplier. */
const ELASTICITY = 2;

function percent(part: bigint, whole: bigint): number {
  // 1e-6 % resolution without passing wei through a float
  return Number((part * 100_000_000n) / whole) / 1_000_000;
}

/** The Block object as the API writes it. */
export type BlockJson = t.OutputOf<typeof Block>;

export function renderBlock(block: BlockRecord, ctx: RenderContext, detail: boolean): BlockJson {
  const target = block.gasLimit / BigInt(ELASTICITY);
  return {
    base_fee_per_gas: decOrNull(block.baseFeePerGas),
    burnt_fees: dec(block.burntFees),
    burnt_fees_percentage: block.transactionFees === 0n ? null : percent(block.burntFees, block.transactionFees),
    difficulty: decOrNull(block.difficulty),
    gas_limit: dec(block.gasLimit),
    gas_target_percentage: target === 0n ? 0 : percent(block.gasUsed - target, target),
    gas_used: dec(block.gasUsed),
    gas_used_percentage: block.gasLimit === 0n ? 0 : percent(block.gasUsed, block.gasLimit),
    hash: block.hash,
    height: block.number,
    internal_transactions_count: detail ? block.internalTransactionsCount : null,
    is_pending_update: false,
    miner: renderAddress(block.miner, ctx),
    nonce: block.nonce,
    parent_hash: block.parentHash,
    priority_fee: dec(block.priorityFee),
    rewards: [],
    size: block.size,
    timestamp: iso(block.timestamp),
    total_difficulty: decOrNull(block.totalDifficulty),
    transaction_fees: dec(block.transactionFees),
    transactions_count: block.transactionsCount,
    type: block.consensus ? 'block' : 'reorg',
    uncles_hashes: block.unclesHashes.map((hash) => ({ hash })),
    withdrawals_count: detail ? 0 : null,
  };
}
