/**
 * Transactions: by hash (a consensus block's, then pending, then another block's) and the
 * validated or pending lists, narrowed by one index (address side, kind, method id) and filtered whole.
 */
import type { Hash, TransactionRecord } from '../../../lib/domain/records.ts';
import type { Page, TransactionCursor, TransactionFilter, VersionedDataSource } from '../../../lib/ports.ts';
import { inRange, minedOrder, minedVs, pendingVs, rangeDesc } from '../compare.ts';
import { takePage, takeUnionPage } from '../paging.ts';
import { NO_ROWS, sides, touches } from './filters.ts';
import type { MemoryReadContext } from './context.ts';

export function transactionQueries({ s, views }: MemoryReadContext): Pick<VersionedDataSource, 'getTransaction' | 'getTransactions' | 'listTransactions'> {
  const getTransaction = (hash: Hash): TransactionRecord | null =>
    s.consensusBlockOf(hash)?.transactions.get(hash) ??
    s.pending.get(hash) ??
    s.otherBlockOf(hash)?.transactions.get(hash) ??
    null;
  return {
    async getTransaction(hash) {
      return getTransaction(hash);
    },

    async getTransactions(hashes: readonly Hash[]): Promise<readonly TransactionRecord[]> {
      return [...new Set(hashes)].map(getTransaction).filter((tx): tx is TransactionRecord => tx !== null);
    },

    async listTransactions(filter: TransactionFilter, page: Page<TransactionCursor>) {
      const idx = views().transactions;
      const kinds = filter.kinds === undefined ? undefined : new Set(filter.kinds);
      const methods = filter.methodIds === undefined ? undefined : new Set(filter.methodIds);
      const { address, blocks } = filter;
      const direction = filter.direction ?? 'any';
      const keep = (t: TransactionRecord): boolean =>
        (kinds === undefined || t.kinds.some((k) => kinds.has(k))) &&
        (methods === undefined || (t.methodId !== null && methods.has(t.methodId))) &&
        (address === undefined || touches(address, direction, t.from, [t.to, t.createdContract])) &&
        inRange(blocks, t.blockNumber);
      const c = page.after;
      const backward = page.order === 'asc';
      if (filter.status === 'pending') {
        if (c !== null && !('insertedAt' in c)) throw new TypeError('pending transactions take an {insertedAt, hash} cursor');
        return takePage(idx.pending, page.limit, { cursor: c === null ? null : pendingVs(c), backward, keep });
      }
      if (c !== null && !('blockNumber' in c)) throw new TypeError('validated transactions take a {blockNumber, index} cursor');
      // narrow the candidates by one index; `keep` applies the whole filter either way
      const lists =
        address !== undefined
          ? sides(direction, idx.byFrom.get(address) ?? NO_ROWS, idx.byTo.get(address) ?? NO_ROWS)
          : kinds !== undefined
            ? [...kinds].map((k) => idx.byKind.get(k) ?? NO_ROWS)
            : methods !== undefined
              ? [...methods].map((m) => idx.byMethod.get(m) ?? NO_ROWS)
              : [idx.validated];
      return takeUnionPage(lists, minedOrder, page.limit, {
        cursor: c === null ? null : minedVs(c),
        window: rangeDesc(blocks, (t: TransactionRecord) => t.blockNumber ?? -1),
        backward,
        keep,
      });
    },
  };
}
