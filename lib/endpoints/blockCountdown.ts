/**
 * GET /blocks/{block_number_param}/countdown — blocks left until a future height and the time
 * they should take at the chain's average block time (lib/stats/averageBlockTime.ts).
 * A height already reached → 404 `Block number already mined`; an empty store → 422
 * `Chain is indexing now, try again later` (Blockscout's answers).
 */
import * as E from 'fp-ts/lib/Either.js';
import { integer } from '../params/codecs.ts';
import { BlockCountdown, ProBlockCountdown } from '../schema/countdown.ts';
import { averageBlockTimeMs } from '../stats/averageBlockTime.ts';
import { defineEndpoint } from './endpoint.ts';

export interface Countdown {
  readonly current: number;
  readonly target: number;
  readonly remaining: number;
  /** remaining × average block time, in tenths of a second (rounded half up) */
  readonly tenthsOfSecond: bigint;
}

/** The countdown to `target` (above `current`) at `averageMs` per block. */
export function countdown(current: number, target: number, averageMs: number): Countdown {
  const remaining = target - current;
  // exact: remaining × ms can pass 2^53
  const tenthsOfSecond = (BigInt(remaining) * BigInt(averageMs) + 50n) / 100n;
  return { current, target, remaining, tenthsOfSecond };
}

/** `"120.0"`: seconds with one decimal. */
export const decimalSeconds = (tenths: bigint): string => `${tenths / 10n}.${tenths % 10n}`;

export const blockCountdown = defineEndpoint({
  route: '/blocks/{block_number_param}/countdown',
  summary: 'Blocks and estimated seconds until a future block',
  path: { block_number_param: integer({ min: 0 }) },
  query: {},
  response: BlockCountdown,
  multichainResponse: ProBlockCountdown,
  unprocessableMessage: 'no block is indexed yet',
  handler:
    ({ ds, form }) =>
    ({ path }) =>
    async () => {
      const current = await ds.getHighestBlockNumber();
      if (current === null) return E.left({ kind: 'ChainIndexing' });
      const target = path.block_number_param;
      if (target <= current) return E.left({ kind: 'NotFound', message: 'Block number already mined' });
      const c = countdown(current, target, await averageBlockTimeMs(ds));
      return E.right(
        form === 'multichain'
          ? { current_block: c.current, countdown_block: c.target, remaining_blocks: c.remaining, estimated_time_in_sec: Number(c.tenthsOfSecond) / 10 }
          : {
              current_block_number: String(c.current),
              countdown_block_number: String(c.target),
              remaining_blocks_count: String(c.remaining),
              estimated_time_in_seconds: decimalSeconds(c.tenthsOfSecond),
            },
      );
    },
});
