/**
 * GET /addresses/{address_hash_param}/token-transfers/csv — token transfers from or to the
 * address, or of the token the address is (Blockscout's "including contract"); with
 * `filter_type=address&filter_value=to|from` only that side. In the period's blocks, oldest
 * first (as Blockscout's export), at most the export limit; one row per transfer (an ERC-1155
 * batch is one row, its amount empty, as Blockscout).
 */
import type { Address, TokenTransferRecord } from '../domain/records.ts';
import { csvTime, directionOf, feeCell, sideOf, transactionsOf } from '../csv/export.ts';
import type { BlockRange, DataSource, Direction, Page, TokenTransferCursor } from '../ports.ts';
import { checksum } from '../render/format.ts';
import { defineAddressExport } from './addressExport.ts';

export const TOKEN_TRANSFER_CSV_COLUMNS = [
  'TxHash',
  'BlockNumber',
  'UnixTimestamp',
  'FromAddress',
  'ToAddress',
  'TokenContractAddress',
  'Type',
  'TokenDecimals',
  'TokenSymbol',
  'TokenDecimals',
  'TokensTransferred',
  'TransactionFee',
  'Status',
  'ErrCode',
] as const;

const keyOf = (tt: TokenTransferRecord): TokenTransferCursor => ({ blockNumber: tt.blockNumber, logIndex: tt.logIndex });
const ascending = (a: TokenTransferRecord, b: TokenTransferRecord): number => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex;

/**
 * One ascending page of the address's transfers: with a side, the port list; without, the
 * union of its transfers and its token's transfers (two keyset lists from the same cursor,
 * merged, a transfer in both kept once).
 */
function reader(ds: DataSource, address: Address, direction: Direction, blocks: BlockRange) {
  return async (after: TokenTransferCursor | null, limit: number): Promise<readonly TokenTransferRecord[]> => {
    const page: Page<TokenTransferCursor> = { after, limit, order: 'asc' };
    const own = ds.listTokenTransfers({ address, direction, blocks }, page);
    if (direction !== 'any') return own;
    const [a, b] = await Promise.all([own, ds.listTokenTransfers({ tokenAddress: address, blocks }, page)]);
    const merged = [...a, ...b].sort(ascending).filter((tt, i, all) => i === 0 || ascending(all[i - 1] as TokenTransferRecord, tt) !== 0);
    return merged.slice(0, limit);
  };
}

export const addressTokenTransfersCsv = defineAddressExport<TokenTransferRecord, TokenTransferCursor>({
  route: '/addresses/{address_hash_param}/token-transfers/csv',
  summary: 'Export an address’s token transfers of a period as CSV (streamed)',
  kind: 'token-transfers',
  columns: TOKEN_TRANSFER_CSV_COLUMNS,
  list: (ds, address, query, blocks) => reader(ds, address, directionOf(query), blocks),
  keyOf,
  rows: async (ds, address, tts) => {
    const [txs, tokens] = await Promise.all([
      transactionsOf(ds, tts.map((tt) => tt.transactionHash)),
      ds.getTokens([...new Set(tts.map((tt) => tt.tokenAddress))]),
    ]);
    const tokenOf = new Map(tokens.map((tk) => [tk.address, tk]));
    return tts.map((tt) => {
      const tx = txs.get(tt.transactionHash);
      const token = tokenOf.get(tt.tokenAddress);
      const decimals = token?.decimals ?? null;
      return [
        tt.transactionHash,
        tt.blockNumber,
        csvTime(tt.timestamp),
        checksum(tt.from),
        checksum(tt.to),
        checksum(tt.tokenAddress),
        sideOf(address, tt.from, tt.to),
        decimals,
        token?.symbol ?? null,
        decimals,
        tt.amount,
        feeCell(tx),
        tx?.status ?? null,
        tx?.error ?? null,
      ];
    });
  },
});
