/**
 * Logs: of one transaction (in log order) or across the chain, by emitting address.
 */
import type { LogRecord } from '../../../lib/domain/records.ts';
import type { VersionedDataSource } from '../../../lib/ports.ts';
import { logInTxVs, logVs, rangeAsc, rangeDesc } from '../compare.ts';
import { takePage } from '../paging.ts';
import { NO_ROWS } from './filters.ts';
import type { MemoryReadContext } from './context.ts';

export function logQueries({ s, views }: MemoryReadContext): Pick<VersionedDataSource, 'listLogs'> {
  return {
    async listLogs(filter, page) {
      const { transactionHash, address, blocks } = filter;
      const c = page.after;
      const keep = address === undefined ? undefined : (l: LogRecord) => l.address === address;
      if (transactionHash !== undefined) {
        const rows = s.consensusBlockOf(transactionHash)?.logsByTx.get(transactionHash) ?? NO_ROWS;
        return takePage(rows, page.limit, {
          cursor: c === null ? null : logInTxVs(c),
          window: rangeAsc(blocks, (l: LogRecord) => l.blockNumber),
          backward: page.order === 'desc',
          keep,
        });
      }
      const idx = views().logs;
      const rows = address === undefined ? idx.all : (idx.byAddress.get(address) ?? NO_ROWS);
      return takePage(rows, page.limit, {
        cursor: c === null ? null : logVs(c),
        window: rangeDesc(blocks, (l: LogRecord) => l.blockNumber),
        backward: page.order === 'asc',
      });
    },
  };
}
