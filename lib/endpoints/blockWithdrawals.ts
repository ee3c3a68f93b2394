/**
 * GET /blocks/{block_hash_or_number_param}/withdrawals — a block's withdrawals, index DESC;
 * items without `block_number` and `timestamp` (Blockscout's shape). Unknown block → 404; by
 * number, a height that lost consensus → 404 "Block lost consensus"; by hash, such a block
 * lists none (the lists hold consensus rows only).
 */
import * as E from 'fp-ts/lib/Either.js';
import { blockHashOrNumber, integer } from '../params/codecs.ts';
import { itemsCount, listBody } from '../paging/page.ts';
import { page } from '../schema/page.ts';
import { BlockWithdrawal } from '../schema/withdrawal.ts';
import { blockOfPath } from './blockOfPath.ts';
import { defineEndpoint } from './endpoint.ts';
import { withdrawalPage } from './withdrawalPage.ts';

export const blockWithdrawals = defineEndpoint({
  route: '/blocks/{block_hash_or_number_param}/withdrawals',
  summary: 'Beacon-chain withdrawals of a block, newest index first',
  path: { block_hash_or_number_param: blockHashOrNumber },
  query: { index: integer(), items_count: itemsCount },
  response: page(BlockWithdrawal),
  handler:
    ({ ds, render }) =>
    ({ path, query }) =>
    async () => {
      const found = await blockOfPath(ds, path.block_hash_or_number_param);
      if (E.isLeft(found)) return found;
      const b = found.right;
      if (!b.consensus) return E.right(listBody([], null));
      return E.right(await withdrawalPage(ds, render, { blocks: { from: b.number, to: b.number } }, query, 'block'));
    },
});
