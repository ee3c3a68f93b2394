/**
 * listBlockFigures: listBlocks' page (same seek on blocks_list / blocks_miner, same order) with
 * only the five columns of a BlockFiguresRecord read and decoded — the newest 201 blocks for
 * /stats cost about what one list page of whole block records does, at any chain size.
 */
import type { BlockCursor, BlockFiguresRecord, BlockFilter, Page } from '../../../lib/ports.ts';
import { asRows, big, num } from '../rows.ts';
import type { SqlContext } from './context.ts';
import { blocksPage } from './listBlocks.ts';

export async function listBlockFigures(c: SqlContext, filter: BlockFilter, page: Page<BlockCursor>): Promise<readonly BlockFiguresRecord[]> {
  const q = blocksPage(c, filter, page);
  if (q === null) return [];
  const rows = asRows(await q.select('number', 'timestamp', 'gas_used', 'gas_limit', 'transaction_fees'));
  return rows.map((r) => ({
    number: num(r, 'number'),
    timestamp: num(r, 'timestamp'),
    gasUsed: big(r, 'gas_used'),
    gasLimit: big(r, 'gas_limit'),
    transactionFees: big(r, 'transaction_fees'),
  }));
}
