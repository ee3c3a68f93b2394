/**
 * `block/getblocknobytime`: `timestamp` (unix seconds) and `closest` (`before`|`after`) →
 * `{blockNumber}`: the last consensus block at or before the time, or the first at or after
 * it; "Block does not exist" when there is none on that side.
 */
import type { EtherscanAction } from '../action.ts';
import { fail, ok } from '../action.ts';
import { nonNegative, param, requiredMessage } from '../params.ts';
import { firstAtOrAfter, lastAtOrBefore } from './blocktime.ts';

export const getblocknobytime: EtherscanAction = {
  module: 'block',
  action: 'getblocknobytime',
  summary: 'The block at or around a time',
  params: [{ name: 'timestamp', description: 'Unix seconds', required: true, example: 'blockTimestamp' }, { name: 'closest', description: 'The block at or `before` the time, or at or `after` it', required: true, enum: ['before', 'after'] }],
  async run(ctx, query) {
    const raw = param(query, 'timestamp');
    if (raw === undefined) return fail(requiredMessage('timestamp'));
    const ts = nonNegative(raw, Number.MAX_SAFE_INTEGER);
    if (ts === undefined) return fail('Invalid timestamp format');
    const closest = param(query, 'closest')?.toLowerCase();
    if (closest === undefined) return fail(requiredMessage('closest'));
    if (closest !== 'before' && closest !== 'after') return fail('Invalid closest format');
    const block = closest === 'before' ? await lastAtOrBefore(ctx.ds, ts) : await firstAtOrAfter(ctx.ds, ts);
    if (block === null) return fail('Block does not exist');
    return ok({ blockNumber: String(block.number) });
  },
};
