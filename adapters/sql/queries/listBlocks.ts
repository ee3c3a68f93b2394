/** listBlocks: (number DESC, hash ASC) over blocks_list / blocks_miner. */
import type { Knex } from 'knex';
import type { BlockRecord } from '../../../lib/domain/records.ts';
import type { BlockCursor, BlockFilter, Page } from '../../../lib/ports.ts';
import { asRows, toBlock } from '../rows.ts';
import type { SqlContext } from './context.ts';
import { orderBy, pageSize, past, within } from './seek.ts';

/** The page's rows of `blocks` (every column unless the caller selects some); null: no rows. */
export function blocksPage(c: SqlContext, filter: BlockFilter, page: Page<BlockCursor>): Knex.QueryBuilder | null {
  const n = pageSize(page.limit);
  if (filter.kind === 'uncle' || n === 0) return null;
  let q = c.knex('blocks').where('consensus', filter.kind === 'block');
  if (filter.miner !== undefined) q = q.andWhere('miner', filter.miner);
  if (page.after !== null) q = past(q, ['"number"'], [page.after.number], page.order);
  q = within(q, 'number', filter.blocks);
  return q.orderBy(orderBy([['number', 'desc'], ['hash', 'asc']], page.order)).limit(n);
}

export async function listBlocks(c: SqlContext, filter: BlockFilter, page: Page<BlockCursor>): Promise<readonly BlockRecord[]> {
  const q = blocksPage(c, filter, page);
  return q === null ? [] : asRows(await q).map(toBlock);
}
