/**
 * GET /addresses/{address_hash_param}/transactions/csv — the address's validated transactions
 * (from, to or creating it; `filter_type=address&filter_value=to|from` for one side) in the
 * period's blocks, newest first, at most the export limit, as Blockscout's columns.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { TransactionRecord } from '../domain/records.ts';
import {
  csvBody,
  CsvText,
  CSV_EXPORT_LIMIT,
  csvTime,
  directionOf,
  emptyPages,
  EXPORT_QUERY,
  exportFilename,
  feeCell,
  keysetPages,
  missingPeriods,
  periodBlocks,
  sideOf,
} from '../csv/export.ts';
import { addressHash } from '../params/codecs.ts';
import type { TransactionCursor } from '../ports.ts';
import { checksum } from '../render/format.ts';
import { transactionMethod } from '../render/transaction.ts';
import { defineEndpoint } from './endpoint.ts';

export const TRANSACTION_CSV_COLUMNS = [
  'TxHash',
  'BlockNumber',
  'UnixTimestamp',
  'FromAddress',
  'ToAddress',
  'ContractAddress',
  'Type',
  'Value',
  'Fee',
  'Status',
  'ErrCode',
  'CurrentPrice',
  'TxDateOpeningPrice',
  'TxDateClosingPrice',
  'MethodName',
] as const;

export const addressTransactionsCsv = defineEndpoint({
  route: '/addresses/{address_hash_param}/transactions/csv',
  summary: 'Export an address’s transactions of a period as CSV (streamed)',
  path: { address_hash_param: addressHash },
  query: EXPORT_QUERY,
  response: CsvText,
  produces: 'text/csv',
  handler:
    ({ ds, csvExportLimit }) =>
    ({ path, query, rawQuery }) =>
    async () => {
      const missing = missingPeriods(rawQuery);
      if (missing !== null) return E.left(missing);
      const address = path.address_hash_param;
      const blocks = await periodBlocks(ds, query.from_period, query.to_period);
      const filter = { status: 'validated', address, direction: directionOf(query), ...(blocks === null ? {} : { blocks }) } as const;
      const pages =
        blocks === null
          ? emptyPages<TransactionRecord>()
          : keysetPages<TransactionRecord, TransactionCursor>(
              (after, limit) => ds.listTransactions(filter, { after, limit, order: 'desc' }),
              (tx) => ({ blockNumber: tx.blockNumber ?? 0, index: tx.index ?? 0 }),
              csvExportLimit ?? CSV_EXPORT_LIMIT,
            );
      return E.right(
        csvBody(exportFilename('transactions', address, rawQuery), TRANSACTION_CSV_COLUMNS, pages, async (txs) => {
          const targets = txs.flatMap((tx) => (tx.to === null ? [] : [tx.to]));
          const contracts = new Set((targets.length === 0 ? [] : await ds.getAddresses([...new Set(targets)])).filter((a) => a.isContract).map((a) => a.hash));
          return txs.map((tx) => [
            tx.hash,
            tx.blockNumber,
            tx.timestamp === null ? null : csvTime(tx.timestamp),
            checksum(tx.from),
            tx.to === null ? null : checksum(tx.to),
            tx.createdContract === null ? null : checksum(tx.createdContract),
            sideOf(address, tx.from, tx.to),
            tx.value,
            feeCell(tx),
            tx.status,
            tx.error,
            null,
            null,
            null,
            transactionMethod(tx, tx.to !== null && contracts.has(tx.to)),
          ]);
        }),
      );
    },
});
