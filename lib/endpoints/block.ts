/** GET /blocks/{block_hash_or_number_param} */
import * as E from 'fp-ts/lib/Either.js';
import { notFound } from '../errors.ts';
import { blockHashOrNumber } from '../params/codecs.ts';
import { renderBlock } from '../render/block.ts';
import { loadContext } from '../render/context.ts';
import { defineEndpoint } from './endpoint.ts';
import { blockWithdrawalsCount } from './withdrawalPage.ts';
import { Block } from '../schema/block.ts';

export const block = defineEndpoint({
  route: '/blocks/{block_hash_or_number_param}',
  summary: 'A block by number or hash',
  path: { block_hash_or_number_param: blockHashOrNumber },
  query: {},
  response: Block,
  handler:
    ({ ds, render }) =>
    ({ path }) =>
    async () => {
      const ref = path.block_hash_or_number_param;
      const found = await ds.getBlock(ref);
      if (found === null) return E.left(notFound);
      if ('number' in ref && !found.consensus) return E.left({ kind: 'BlockLostConsensus', hash: found.hash });
      const [ctx, withdrawalsCount] = await Promise.all([
        loadContext(ds, { addresses: [found.miner] }, render),
        found.consensus ? blockWithdrawalsCount(ds, found.number) : Promise.resolve(0),
      ]);
      return E.right({ ...renderBlock(found, ctx, true), withdrawals_count: withdrawalsCount });
    },
});
