/**
 * Batch-aware paging of token transfers (desc by block, log index). A stored ERC-1155 batch
 * expands into several items; when a page ends inside a batch, next_page_params carries the
 * batch position (`batch_log_index`, `batch_block_hash`, `batch_transaction_hash`,
 * `index_in_batch`) and the next request re-reads that batch and resumes after the item.
 */
import type { Hash, TokenTransferRecord } from '../domain/records.ts';
import type { JsonObject } from '../json.ts';
import { fullHash, integer } from '../params/codecs.ts';
import type { DataSource, TokenTransferCursor, TokenTransferFilter } from '../ports.ts';
import type { TransferItem } from '../render/transfer.ts';
import { expandTransfer } from '../render/transfer.ts';

/** The paging keys every transfer list accepts. */
export const TRANSFER_PAGING_QUERY = {
  block_number: integer({ min: 0 }),
  index: integer(),
  batch_log_index: integer(),
  batch_block_hash: fullHash,
  batch_transaction_hash: fullHash,
  index_in_batch: integer(),
} as const;

export interface TransferPagingQuery {
  readonly block_number?: number;
  readonly index?: number;
  readonly batch_log_index?: number;
  readonly batch_block_hash?: Hash;
  readonly batch_transaction_hash?: Hash;
  readonly index_in_batch?: number;
}

interface Resume {
  readonly cursor: TokenTransferCursor | null;
  /** items of the batch at the cursor to drop (already shown) */
  readonly skip: ((r: TokenTransferRecord, item: TransferItem) => boolean) | null;
}

function resumeFrom(q: TransferPagingQuery): Resume {
  if (
    q.block_number !== undefined &&
    q.batch_log_index !== undefined &&
    q.batch_block_hash !== undefined &&
    q.batch_transaction_hash !== undefined &&
    q.index_in_batch !== undefined
  ) {
    const { block_number: blockNumber, batch_log_index: logIndex, batch_block_hash: blockHash, batch_transaction_hash: txHash, index_in_batch: k } = q;
    return {
      cursor: { blockNumber, logIndex, inclusive: true },
      skip: (r, item) =>
        r.blockNumber === blockNumber &&
        r.logIndex === logIndex &&
        r.blockHash === blockHash &&
        r.transactionHash === txHash &&
        (item.indexInBatch === null || item.indexInBatch >= k),
    };
  }
  if (q.block_number !== undefined) {
    return { cursor: { blockNumber: q.block_number, logIndex: q.index ?? Number.MAX_SAFE_INTEGER }, skip: null };
  }
  return { cursor: null, skip: null };
}

export interface TransferPage {
  readonly items: readonly TransferItem[];
  readonly next: JsonObject | null;
}

export async function pageTransfers(
  ds: DataSource,
  filter: TokenTransferFilter,
  q: TransferPagingQuery,
  size: number,
): Promise<TransferPage> {
  const { cursor, skip } = resumeFrom(q);
  // one transaction's transfers read in log order; every other list newest first
  const order = filter.transactionHash === undefined ? 'desc' : 'asc';
  const items: TransferItem[] = [];
  let after = cursor;
  for (;;) {
    const records = await ds.listTokenTransfers(filter, { after, limit: size + 1, order });
    for (const r of records) {
      for (const item of expandTransfer(r, filter.tokenId)) {
        if (skip === null || !skip(r, item)) items.push(item);
      }
    }
    const last = records[records.length - 1];
    if (items.length > size || records.length < size + 1 || last === undefined) break;
    after = { blockNumber: last.blockNumber, logIndex: last.logIndex };
  }
  if (items.length <= size) return { items, next: null };
  const shown = items.slice(0, size);
  const lastShown = shown[size - 1] as TransferItem;
  const following = items[size] as TransferItem;
  const r = lastShown.record;
  const next: JsonObject =
    following.record === r && lastShown.indexInBatch !== null
      ? {
          batch_block_hash: r.blockHash,
          batch_log_index: r.logIndex,
          batch_transaction_hash: r.transactionHash,
          block_number: r.blockNumber,
          index: r.logIndex,
          index_in_batch: lastShown.indexInBatch,
        }
      : { block_number: r.blockNumber, index: r.logIndex };
  return { items: shown, next };
}
