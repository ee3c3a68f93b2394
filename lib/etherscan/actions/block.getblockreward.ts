/**
 * `block/getblockreward`: `blockno` → `{blockNumber, timeStamp, blockMiner, blockReward, uncles,
 * uncleInclusionReward}`. The store keeps no reward rows, so the rewards are zeros, as
 * Blockscout answers for a block without them.
 */
import type { EtherscanAction } from '../action.ts';
import { fail, ok } from '../action.ts';
import { nonNegative, param, requiredMessage } from '../params.ts';
import { BLOCKNO } from '../paramDocs.ts';

export const getblockreward: EtherscanAction = {
  module: 'block',
  action: 'getblockreward',
  summary: "A block's miner and rewards",
  params: [BLOCKNO],
  async run(ctx, query) {
    const raw = param(query, 'blockno');
    if (raw === undefined) return fail(requiredMessage('blockno'));
    const n = nonNegative(raw, Number.MAX_SAFE_INTEGER);
    if (n === undefined) return fail('Invalid block number');
    const block = await ctx.ds.getBlock({ number: n });
    if (block === null || !block.consensus) return fail('Block does not exist');
    return ok({ blockNumber: String(block.number), timeStamp: block.timestamp, blockMiner: block.miner, blockReward: '0', uncles: [], uncleInclusionReward: '0' });
  },
};
