/** GET /blocks — consensus (type=block), reorged (type=reorg) or uncle blocks, newest first. */
import * as E from 'fp-ts/lib/Either.js';
import type { BlockRecord } from '../domain/records.ts';
import { enumOf, integer } from '../params/codecs.ts';
import { itemsCount, listBody, pageSize, splitPage } from '../paging/page.ts';
import type { ListBody } from '../paging/page.ts';
import type { BlockFilter } from '../ports.ts';
import type { DataSource } from '../ports.ts';
import { loadContext } from '../render/context.ts';
import type { RenderOptions } from '../render/context.ts';
import { renderBlock } from '../render/block.ts';
import type { BlockJson } from '../render/block.ts';
import { defineEndpoint } from './endpoint.ts';
import { Block } from '../schema/block.ts';
import { page } from '../schema/page.ts';

export const blocksQuery = {
  type: enumOf(['block', 'uncle', 'reorg'] as const),
  block_number: integer({ min: 0 }),
  items_count: itemsCount,
} as const;

/** A page of blocks by (number DESC) — shared with /addresses/{h}/blocks-validated. */
export async function blockPage(
  ds: DataSource,
  filter: BlockFilter,
  q: { readonly block_number?: number; readonly items_count?: number },
  render: RenderOptions,
): Promise<ListBody<BlockJson>> {
  const size = pageSize(q);
  const after = q.block_number === undefined ? null : { number: q.block_number };
  const { rows, last } = splitPage<BlockRecord>(await ds.listBlocks(filter, { after, limit: size + 1, order: 'desc' }), size);
  const ctx = await loadContext(ds, { addresses: rows.map((b) => b.miner) }, render);
  return listBody(
    rows.map((b) => renderBlock(b, ctx, false)),
    last === null ? null : { block_number: last.number, items_count: size },
  );
}

export const blocks = defineEndpoint({
  route: '/blocks',
  summary: 'Consensus, reorged or uncle blocks, newest first',
  path: {},
  query: blocksQuery,
  response: page(Block),
  handler:
    ({ ds, render }) =>
    ({ query }) =>
    async () =>
      E.right(await blockPage(ds, { kind: query.type ?? 'block' }, query, render)),
});
