/**
 * GET /addresses/{address_hash_param}/transactions/csv — the address's validated transactions
 * (from, to or creating it; `filter_type=address&filter_value=to|from` for one side) in the
 * period's blocks, newest first, at most the export limit, as Blockscout's columns.
 */
import type { TransactionRecord } from '../domain/records.ts';
import { csvTime, directionOf, feeCell, sideOf } from '../csv/export.ts';
import type { TransactionCursor } from '../ports.ts';
import { checksum } from '../render/format.ts';
import { transactionMethod } from '../render/transaction.ts';
import { defineAddressExport } from './addressExport.ts';

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

export const addressTransactionsCsv = defineAddressExport<TransactionRecord, TransactionCursor>({
  route: '/addresses/{address_hash_param}/transactions/csv',
  summary: 'Export an address’s transactions of a period as CSV (streamed)',
  kind: 'transactions',
  columns: TRANSACTION_CSV_COLUMNS,
  list: (ds, address, query, blocks) => (after, limit) =>
    ds.listTransactions({ status: 'validated', address, direction: directionOf(query), blocks }, { after, limit, order: 'desc' }),
  keyOf: (tx) => ({ blockNumber: tx.blockNumber ?? 0, index: tx.index ?? 0 }),
  rows: async (ds, address, txs) => {
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
  },
});
