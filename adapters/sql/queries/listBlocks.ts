/** listBlocks: (number DESC, hash ASC) over blocks_list / blocks_miner. */
import type { BlockRecord } from '../../../lib/domain/records.ts';
import type { BlockCursor, BlockFilter, Page } from '../../../lib/ports.ts';
import { asRows, toBlock } from '../rows.ts';
import type { SqlContext } from './context.ts';
import { orderBy, pageSize, past, within } from './seek.ts';

export async function listBlocks(c: SqlContext, filter: BlockFilter, page: Page<BlockCursor>): Promise<readonly BlockRecord[]> {
  const { knex } = c;
  const n = pageSize(page.limit);
  if (filter.kind === 'uncle' || n === 0) return [];
  let q = knex('blocks').where('consensus', filter.kind === 'block');
  if (filter.miner !== undefined) q = q.andWhere('miner', filter.miner);
  if (page.after !== null) q = past(q, ['"number"'], [page.after.number], page.order);
  q = within(q, 'number', filter.blocks);
  const rows = await q.orderBy(orderBy([['number', 'desc'], ['hash', 'asc']], page.order)).limit(n);
  return asRows(rows).map(toBlock);
}
