/**
 * `account/getminedblocks`: the consensus blocks `address` mined, newest first, paged by
 * `page`/`offset`: `[{blockNumber, timeStamp}]` with Blockscout's DateTime string as timeStamp.
 */
import type { BlockRecord } from '../../domain/records.ts';
import type { EtherscanAction } from '../action.ts';
import { none, ok } from '../action.ts';
import { collectWindow, one } from '../paging.ts';
import { addressParam, windowParam } from '../params.ts';
import { dateTimeString } from '../rows.ts';
import { ADDRESS, PAGING } from '../paramDocs.ts';

export const getminedblocks: EtherscanAction = {
  module: 'account',
  action: 'getminedblocks',
  summary: 'The blocks an address mined',
  params: [ADDRESS, ...PAGING],
  async run(ctx, query) {
    const miner = addressParam(query);
    if ('error' in miner) return miner.error;
    const window = windowParam(query);
    if ('error' in window) return window.error;
    const blocks = await collectWindow<BlockRecord, BlockRecord>(
      (after, limit) => ctx.ds.listBlocks({ kind: 'block', miner: miner.value }, { after: after === null ? null : { number: after.number }, limit, order: 'desc' }),
      window.value,
      one,
    );
    if (blocks.length === 0) return none('No blocks found');
    return ok(blocks.map((b) => ({ blockNumber: String(b.number), timeStamp: dateTimeString(b.timestamp) })));
  },
};
