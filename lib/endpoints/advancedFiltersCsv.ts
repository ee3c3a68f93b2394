/**
 * GET /advanced-filters/csv — the /advanced-filters stream (same filters, same order, starting
 * after the same five position keys when all are given) as one streamed CSV with Blockscout's
 * advanced-filter columns, at most the export limit of rows. Pages of the merged stream are read
 * one after another (a page may be short; reading stops when the stream has no next position).
 */
import * as E from 'fp-ts/lib/Either.js';
import type { Address, Hash, TokenRecord, TransactionRecord } from '../domain/records.ts';
import type { AdvancedFilter } from '../advanced/filter.ts';
import { parseAdvancedFilter } from '../advanced/filter.ts';
import type { AdvancedRow, ItemKey } from '../advanced/stream.ts';
import { listAdvancedFilter } from '../advanced/stream.ts';
import { csvBody, CsvText, CSV_EXPORT_LIMIT, CSV_PAGE_SIZE, csvTime, transactionsOf, xsdDecimal } from '../csv/export.ts';
import type { CsvCell } from '../csv/writer.ts';
import { effectiveGasPrice } from '../ingest/derive.ts';
import type { DataSource } from '../ports.ts';
import { checksum } from '../render/format.ts';
import { transactionFee } from '../render/transaction.ts';
import { ADVANCED_FILTER_POSITION, ADVANCED_FILTER_QUERY, startOf } from './advancedFilters.ts';
import { defineEndpoint } from './endpoint.ts';

export const ADVANCED_FILTER_CSV_COLUMNS = [
  'TxHash',
  'Type',
  'MethodId',
  'UtcTimestamp',
  'FromAddress',
  'ToAddress',
  'CreatedContractAddress',
  'Value',
  'TokenContractAddressHash',
  'TokenDecimals',
  'TokenSymbol',
  'TokenValue',
  'TokenID',
  'BlockNumber',
  'Fee',
  'CurrentPrice',
  'TxDateOpeningPrice',
  'TxDateClosingPrice',
] as const;

/** Pages of the merged stream after `start`, at most `max` rows in all. */
async function* streamPages(ds: DataSource, filter: AdvancedFilter, start: ItemKey | null, max: number): AsyncGenerator<readonly AdvancedRow[]> {
  let after = start;
  let left = max;
  while (left > 0) {
    const page = await listAdvancedFilter(ds, filter, after, Math.min(CSV_PAGE_SIZE, left));
    if (page.rows.length > 0) yield page.rows;
    left -= page.rows.length;
    if (page.next === null) return;
    after = page.next;
  }
}

/** The token cells (decimals, value in whole tokens, token id) as Blockscout's transfer `total` gives them. */
function tokenCells(row: Extract<AdvancedRow, { kind: 'transfer' }>, token: TokenRecord | undefined): [CsvCell, CsvCell, CsvCell] {
  const decimals = token?.decimals ?? null;
  const value = (v: bigint | null): CsvCell => (v === null ? null : xsdDecimal(v, decimals));
  switch (row.tt.tokenType) {
    case 'ERC-721':
      return [null, null, row.tokenId];
    case 'ERC-1155':
      return [decimals, value(row.amount), row.tokenId];
    case 'ERC-404':
      if (row.tokenId !== null) return [decimals, value(row.amount), row.tokenId];
      return row.amount === null ? [null, null, null] : [decimals, value(row.amount), null];
    case 'ERC-7984':
      return [decimals, null, null];
    case 'ERC-20':
      return row.amount === null ? [null, null, null] : [decimals, value(row.amount), null];
  }
}

const feeValue = (tx: TransactionRecord | undefined): string | null => {
  if (tx === undefined) return null;
  const v = transactionFee(tx)['value'];
  return typeof v === 'string' ? v : null;
};

/** The CSV records of one page of the stream. */
async function pageRows(ds: DataSource, rows: readonly AdvancedRow[]): Promise<CsvCell[][]> {
  const parentHashes: Hash[] = [];
  const targets = new Set<Address>();
  const tokenAddresses = new Set<Address>();
  for (const r of rows) {
    if (r.kind === 'transaction') {
      if (r.tx.to !== null) targets.add(r.tx.to);
    } else if (r.kind === 'internal') {
      parentHashes.push(r.it.transactionHash);
      if (r.it.to !== null) targets.add(r.it.to);
    } else {
      parentHashes.push(r.tt.transactionHash);
      tokenAddresses.add(r.tt.tokenAddress);
    }
  }
  const [parents, addresses, tokens] = await Promise.all([
    parentHashes.length === 0 ? new Map<Hash, TransactionRecord>() : transactionsOf(ds, parentHashes),
    targets.size === 0 ? [] : ds.getAddresses([...targets]),
    tokenAddresses.size === 0 ? [] : ds.getTokens([...tokenAddresses]),
  ]);
  const contracts = new Set(addresses.filter((a) => a.isContract).map((a) => a.hash));
  const tokenOf = new Map(tokens.map((tk) => [tk.address, tk]));
  const coinType = (to: Address | null): string => (to === null ? 'contract_creation' : contracts.has(to) ? 'contract_interaction' : 'coin_transfer');
  const noPrices: CsvCell[] = [null, null, null];
  return rows.map((r): CsvCell[] => {
    if (r.kind === 'transaction') {
      const tx = r.tx;
      return [
        tx.hash,
        coinType(tx.to),
        tx.methodId,
        csvTime(tx.timestamp ?? 0),
        checksum(tx.from),
        tx.to === null ? null : checksum(tx.to),
        tx.createdContract === null ? null : checksum(tx.createdContract),
        tx.value,
        null,
        null,
        null,
        null,
        null,
        r.key[0],
        feeValue(tx),
        ...noPrices,
      ];
    }
    if (r.kind === 'internal') {
      const it = r.it;
      const parent = parents.get(it.transactionHash);
      const price = parent === undefined ? null : effectiveGasPrice(parent, parent.baseFeePerGas);
      return [
        it.transactionHash,
        coinType(it.to),
        // the trace's own input is not stored
        null,
        csvTime(it.timestamp),
        checksum(it.from),
        it.to === null ? null : checksum(it.to),
        it.createdContract === null ? null : checksum(it.createdContract),
        it.value,
        null,
        null,
        null,
        null,
        null,
        r.key[0],
        price === null || it.gasUsed === null ? null : price * it.gasUsed,
        ...noPrices,
      ];
    }
    const tt = r.tt;
    const token = tokenOf.get(tt.tokenAddress);
    const [decimals, value, tokenId] = tokenCells(r, token);
    return [
      tt.transactionHash,
      tt.tokenType,
      tt.methodId,
      csvTime(tt.timestamp),
      checksum(tt.from),
      checksum(tt.to),
      null,
      null,
      checksum(tt.tokenAddress),
      decimals,
      token?.symbol ?? null,
      value,
      tokenId,
      r.key[0],
      feeValue(parents.get(tt.transactionHash)),
      ...noPrices,
    ];
  });
}

export const advancedFiltersCsv = defineEndpoint({
  route: '/advanced-filters/csv',
  summary: 'Export the items matching the advanced filter as CSV (streamed)',
  path: {},
  query: {
    ...ADVANCED_FILTER_QUERY,
    ...ADVANCED_FILTER_POSITION,
  },
  response: CsvText,
  produces: 'text/csv',
  handler:
    ({ ds, csvExportLimit }) =>
    ({ query }) =>
    async () => {
      const filter = parseAdvancedFilter(query);
      const pages = streamPages(ds, filter, startOf(query), csvExportLimit ?? CSV_EXPORT_LIMIT);
      return E.right(csvBody('advanced-filters.csv', ADVANCED_FILTER_CSV_COLUMNS, pages, (rows) => pageRows(ds, rows)));
    },
});
