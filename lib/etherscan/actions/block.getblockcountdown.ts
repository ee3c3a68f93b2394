/**
 * `block/getblockcountdown`: `blockno` (a future height) → `{CurrentBlock, CountdownBlock,
 * RemainingBlock, EstimateTimeInSec}`, all strings: the blocks left from the store's head and
 * the time they take at the chain's average block time (as `/blocks/{n}/countdown`, seconds with
 * one decimal). A height already reached: `Error! Block number already pass`; an empty store:
 * `Chain is indexing now, try again later` (Blockscout's messages).
 */
import { countdown, decimalSeconds } from '../../endpoints/blockCountdown.ts';
import { averageBlockTimeMs } from '../../stats/averageBlockTime.ts';
import type { EtherscanAction } from '../action.ts';
import { fail, ok } from '../action.ts';
import { nonNegative, param, requiredMessage } from '../params.ts';
import { BLOCKNO } from '../paramDocs.ts';

export const getblockcountdown: EtherscanAction = {
  module: 'block',
  action: 'getblockcountdown',
  summary: 'The blocks and time left until a future block',
  params: [{ ...BLOCKNO, description: 'A block number above the head' }],
  async run(ctx, query) {
    const raw = param(query, 'blockno');
    if (raw === undefined) return fail(requiredMessage('blockno'));
    const target = nonNegative(raw, Number.MAX_SAFE_INTEGER);
    if (target === undefined) return fail('Invalid block number');
    const current = await ctx.ds.getHighestBlockNumber();
    if (current === null) return fail('Chain is indexing now, try again later');
    if (target <= current) return fail('Error! Block number already pass');
    const c = countdown(current, target, await averageBlockTimeMs(ctx.ds));
    return ok({ CurrentBlock: String(c.current), CountdownBlock: String(c.target), RemainingBlock: String(c.remaining), EstimateTimeInSec: decimalSeconds(c.tenthsOfSecond) });
  },
};
