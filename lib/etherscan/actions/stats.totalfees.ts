/**
 * `stats/totalfees`: `date` (YYYY-MM-DD, UTC) → the transaction fees of that day's consensus
 * blocks, in wei (a string); null when no block falls on that day. The day's blocks are found by
 * time (binary search) and summed in keyset pages (at most MAX_FEE_BLOCKS blocks).
 */
import type { BlockRecord } from '../../domain/records.ts';
import type { EtherscanAction } from '../action.ts';
import { fail, ok } from '../action.ts';
import { collectWindow } from '../paging.ts';
import { param, requiredMessage } from '../params.ts';
import { firstAtOrAfter, lastAtOrBefore } from './blocktime.ts';

export const MAX_FEE_BLOCKS = 50_000;

export const totalfees: EtherscanAction = {
  module: 'stats',
  action: 'totalfees',
  summary: 'The transaction fees of one day, in wei',
  params: [{ name: 'date', description: 'The day (YYYY-MM-DD, UTC)', required: true, example: 'date' }],
  async run(ctx, query) {
    const raw = param(query, 'date');
    if (raw === undefined) return fail(requiredMessage('date'));
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
    const start = m === null ? NaN : Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / 1000;
    if (m === null || Number.isNaN(start) || new Date(start * 1000).toISOString().slice(0, 10) !== raw) return fail('Invalid date format');
    const end = start + 86_400;
    const [first, last] = await Promise.all([firstAtOrAfter(ctx.ds, start), lastAtOrBefore(ctx.ds, end - 1)]);
    if (first === null || last === null || first.timestamp >= end || last.number < first.number) return ok(null);
    const blocks = await collectWindow<BlockRecord, BlockRecord>(
      (after, limit) =>
        ctx.ds.listBlocks({ kind: 'block', blocks: { from: first.number, to: last.number } }, { after: after === null ? null : { number: after.number }, limit, order: 'asc' }),
      { skip: 0, take: MAX_FEE_BLOCKS },
      (b) => [b],
    );
    return ok(blocks.reduce((sum, b) => sum + b.transactionFees, 0n).toString());
  },
};
