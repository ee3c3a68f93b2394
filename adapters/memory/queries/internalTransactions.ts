/**
 * Internal transactions: of one transaction (in trace order) or across the chain, by address side.
 */
import type { InternalTransactionRecord } from '../../../lib/domain/records.ts';
import type { InternalTransactionFilter, VersionedDataSource } from '../../../lib/ports.ts';
import { internalInTxVs, internalOrder, internalVs, rangeAsc, rangeDesc } from '../compare.ts';
import { takePage, takeUnionPage } from '../paging.ts';
import { NO_ROWS, sides, touches } from './filters.ts';
import type { MemoryReadContext } from './context.ts';

export function internalTransactionQueries({ s, views }: MemoryReadContext): Pick<VersionedDataSource, 'listInternalTransactions'> {
  return {
    async listInternalTransactions(filter: InternalTransactionFilter, page) {
      const c = page.after;
      const { address, transactionHash, blocks } = filter;
      const direction = filter.direction ?? 'any';
      const keep =
        address === undefined ? undefined : (r: InternalTransactionRecord) => touches(address, direction, r.from, [r.to, r.createdContract]);
      if (transactionHash !== undefined) {
        const rows = s.consensusBlockOf(transactionHash)?.internalByTx.get(transactionHash) ?? NO_ROWS;
        return takePage(rows, page.limit, {
          cursor: c === null ? null : internalInTxVs(c),
          window: rangeAsc(blocks, (r: InternalTransactionRecord) => r.blockNumber),
          backward: page.order === 'desc',
          keep,
        });
      }
      const idx = views().internal;
      const lists = address === undefined ? [idx.all] : sides(direction, idx.byFrom.get(address) ?? NO_ROWS, idx.byTo.get(address) ?? NO_ROWS);
      return takeUnionPage(lists, internalOrder, page.limit, {
        cursor: c === null ? null : internalVs(c),
        window: rangeDesc(blocks, (r: InternalTransactionRecord) => r.blockNumber),
        backward: page.order === 'asc',
        keep,
      });
    },
  };
}
