/**
 * Blocks: by hash or number (the preferred block at a height), the highest consensus number,
 * and the block lists (consensus or reorg, by miner) with their figures.
 */
import type { BlockRecord } from '../../../lib/domain/records.ts';
import type { BlockCursor, BlockFilter, BlockRef, Page, VersionedDataSource } from '../../../lib/ports.ts';
import { blockVs, rangeDesc } from '../compare.ts';
import { takePage } from '../paging.ts';
import { NO_ROWS } from './filters.ts';
import type { MemoryReadContext } from './context.ts';

export function blockQueries({ s, views }: MemoryReadContext): Pick<VersionedDataSource, 'getBlock' | 'getHighestBlockNumber' | 'listBlocks' | 'listBlockFigures'> {
  const listBlocks = (filter: BlockFilter, page: Page<BlockCursor>): readonly BlockRecord[] => {
    if (filter.kind === 'uncle') return [];
    const idx = views().blocks;
    const rows =
      filter.miner === undefined
        ? filter.kind === 'block'
          ? idx.consensus
          : idx.reorg
        : ((filter.kind === 'block' ? idx.consensusByMiner : idx.reorgByMiner).get(filter.miner) ?? NO_ROWS);
    return takePage(rows, page.limit, {
      cursor: page.after === null ? null : blockVs(page.after),
      window: rangeDesc(filter.blocks, (b: BlockRecord) => b.number),
      backward: page.order === 'asc',
    });
  };
  return {
    async getBlock(ref: BlockRef): Promise<BlockRecord | null> {
      if ('hash' in ref) return s.blocks.get(ref.hash)?.stored.block ?? null;
      return s.preferredAt(ref.number)?.stored.block ?? null;
    },

    async getHighestBlockNumber() {
      return views().blocks.consensus[0]?.number ?? null;
    },

    async listBlocks(filter: BlockFilter, page) {
      return listBlocks(filter, page);
    },

    async listBlockFigures(filter: BlockFilter, page) {
      return listBlocks(filter, page).map(({ number, timestamp, gasUsed, gasLimit, transactionFees }) => ({ number, timestamp, gasUsed, gasLimit, transactionFees }));
    },
  };
}
