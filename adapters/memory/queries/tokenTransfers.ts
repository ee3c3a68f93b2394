/**
 * Token transfers: of one transaction (in log order) or across the chain, by (token, id),
 * address side or token, and their count per token (and id).
 */
import type { TokenTransferRecord } from '../../../lib/domain/records.ts';
import type { TokenTransferFilter, VersionedDataSource } from '../../../lib/ports.ts';
import { rangeAsc, rangeDesc, transferInTxVs, transferOrder, transferVs } from '../compare.ts';
import { takePage, takeUnionPage } from '../paging.ts';
import { NO_ROWS, sides, touches } from './filters.ts';
import type { MemoryReadContext } from './context.ts';

export function tokenTransferQueries({ s, views }: MemoryReadContext): Pick<VersionedDataSource, 'countTokenTransfers' | 'listTokenTransfers'> {
  return {
    async countTokenTransfers({ tokenAddress, tokenId }) {
      const v = views();
      return (tokenId === undefined ? (v.transfers.byToken.get(tokenAddress) ?? NO_ROWS) : v.transfersOfId(tokenAddress, tokenId)).length;
    },

    async listTokenTransfers(filter: TokenTransferFilter, page) {
      const { tokenAddress, tokenId, transactionHash, address, blocks } = filter;
      const direction = filter.direction ?? 'any';
      const types = filter.types === undefined ? undefined : new Set(filter.types);
      const methods = filter.methodIds === undefined ? undefined : new Set(filter.methodIds);
      const keep = (t: TokenTransferRecord): boolean =>
        (tokenAddress === undefined || t.tokenAddress === tokenAddress) &&
        (tokenId === undefined || t.tokenIds.includes(tokenId)) &&
        (types === undefined || types.has(t.tokenType)) &&
        (methods === undefined || (t.methodId !== null && methods.has(t.methodId))) &&
        (address === undefined || touches(address, direction, t.from, [t.to]));
      const c = page.after;
      const inclusive = c?.inclusive === true;
      if (transactionHash !== undefined) {
        const rows = s.consensusBlockOf(transactionHash)?.transfersByTx.get(transactionHash) ?? NO_ROWS;
        return takePage(rows, page.limit, {
          cursor: c === null ? null : transferInTxVs(c),
          inclusive,
          window: rangeAsc(blocks, (t: TokenTransferRecord) => t.blockNumber),
          backward: page.order === 'desc',
          keep,
        });
      }
      const v = views();
      const lists =
        tokenAddress !== undefined && tokenId !== undefined
          ? [v.transfersOfId(tokenAddress, tokenId)]
          : address !== undefined
            ? sides(direction, v.transfers.byFrom.get(address) ?? NO_ROWS, v.transfers.byTo.get(address) ?? NO_ROWS)
            : tokenAddress !== undefined
              ? [v.transfers.byToken.get(tokenAddress) ?? NO_ROWS]
              : [v.transfers.all];
      return takeUnionPage(lists, transferOrder, page.limit, {
        cursor: c === null ? null : transferVs(c),
        inclusive,
        window: rangeDesc(blocks, (t: TokenTransferRecord) => t.blockNumber),
        backward: page.order === 'asc',
        keep,
      });
    },
  };
}
