/**
 * Blocks: the filter, cursor and queries of the block records.
 */
import type { Address, BlockRecord, Hash } from '../domain/records.ts';
import type { BlockRange, Page } from './page.ts';

export interface BlockFilter {
  /** 'block' = consensus blocks; 'reorg' = non-consensus blocks; 'uncle' = uncles (none stored) */
  readonly kind: 'block' | 'uncle' | 'reorg';
  /** only blocks mined by this address (combined with kind) */
  readonly miner?: Address;
  readonly blocks?: BlockRange;
}
/** Order desc: (number DESC, hash ASC). Cursor: strictly past `number`. */
export interface BlockCursor {
  readonly number: number;
}
/**
 * A block's figures (listBlockFigures): the few columns the chain statistics read from recent
 * blocks (average block time, gas price estimates, network utilization), without the rest of
 * the record.
 */
export type BlockFiguresRecord = Pick<BlockRecord, 'number' | 'timestamp' | 'gasUsed' | 'gasLimit' | 'transactionFees'>;

export type BlockRef = { readonly number: number } | { readonly hash: Hash };

/** The block queries of a DataSource. */
export interface BlockQueries {
  /** By number: the consensus block at that height, else a non-consensus one, else null. */
  getBlock(ref: BlockRef): Promise<BlockRecord | null>;
  /** highest consensus block number, null when empty */
  getHighestBlockNumber(): Promise<number | null>;
  listBlocks(filter: BlockFilter, page: Page<BlockCursor>): Promise<readonly BlockRecord[]>;
  /**
   * Optional: listBlocks narrowed to each block's figures (the same filter, order, cursor and
   * records), a narrower read for the chain statistics. Without it they read listBlocks.
   */
  listBlockFigures?(filter: BlockFilter, page: Page<BlockCursor>): Promise<readonly BlockFiguresRecord[]>;
}
