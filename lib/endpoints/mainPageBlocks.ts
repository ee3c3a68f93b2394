/** GET /main-page/blocks — the 4 newest consensus blocks, as a bare array of list items. */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { renderBlock } from '../render/block.ts';
import { loadContext } from '../render/context.ts';
import { Block } from '../schema/block.ts';
import { defineEndpoint } from './endpoint.ts';

/** Blockscout's home page shows this many blocks. */
export const MAIN_PAGE_BLOCKS = 4;

export const mainPageBlocks = defineEndpoint({
  route: '/main-page/blocks',
  summary: 'The newest blocks, as the home page shows them',
  path: {},
  query: {},
  response: t.array(Block),
  handler:
    ({ ds, render }) =>
    () =>
    async () => {
      const rows = await ds.listBlocks({ kind: 'block' }, { after: null, limit: MAIN_PAGE_BLOCKS, order: 'desc' });
      const ctx = await loadContext(ds, { addresses: rows.map((b) => b.miner) }, render);
      return E.right(rows.map((b) => renderBlock(b, ctx, false)));
    },
});
