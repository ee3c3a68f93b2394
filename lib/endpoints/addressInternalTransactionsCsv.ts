/**
 * GET /addresses/{address_hash_param}/internal-transactions/csv — the internal transactions
 * from, to or creating the address (`filter_type=address&filter_value=to|from` for one side)
 * in the period's blocks, newest first, at most the export limit, as Blockscout's columns.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { InternalTransactionRecord } from '../domain/records.ts';
import {
  csvBody,
  CsvText,
  CSV_EXPORT_LIMIT,
  csvTime,
  directionOf,
  emptyPages,
  EXPORT_QUERY,
  exportFilename,
  keysetPages,
  missingPeriods,
  periodBlocks,
  transactionsOf,
} from '../csv/export.ts';
import { effectiveGasPrice } from '../ingest/derive.ts';
import { addressHash } from '../params/codecs.ts';
import type { InternalTransactionCursor } from '../ports.ts';
import { checksum } from '../render/format.ts';
import { defineEndpoint } from './endpoint.ts';

export const INTERNAL_TRANSACTION_CSV_COLUMNS = [
  'TxHash',
  'Index',
  'BlockNumber',
  'BlockHash',
  'TxIndex',
  'BlockIndex',
  'UnixTimestamp',
  'FromAddress',
  'ToAddress',
  'ContractAddress',
  'Type',
  'CallType',
  'Gas',
  'GasUsed',
  'Value',
  'Input',
  'Output',
  'ErrCode',
  'Fee',
] as const;

const CALL_TYPES: readonly string[] = ['call', 'delegatecall', 'staticcall', 'callcode'];

export const addressInternalTransactionsCsv = defineEndpoint({
  route: '/addresses/{address_hash_param}/internal-transactions/csv',
  summary: 'Export an address’s internal transactions of a period as CSV (streamed)',
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
      const filter = { address, direction: directionOf(query), ...(blocks === null ? {} : { blocks }) };
      const pages =
        blocks === null
          ? emptyPages<InternalTransactionRecord>()
          : keysetPages<InternalTransactionRecord, InternalTransactionCursor>(
              (after, limit) => ds.listInternalTransactions(filter, { after, limit, order: 'desc' }),
              (it) => ({ blockNumber: it.blockNumber, transactionIndex: it.transactionIndex, index: it.index }),
              csvExportLimit ?? CSV_EXPORT_LIMIT,
            );
      return E.right(
        csvBody(exportFilename('internal-transactions', address, rawQuery), INTERNAL_TRANSACTION_CSV_COLUMNS, pages, async (its) => {
          const txs = await transactionsOf(ds, its.map((it) => it.transactionHash));
          return its.map((it) => {
            const tx = txs.get(it.transactionHash);
            const price = tx === undefined ? null : effectiveGasPrice(tx, tx.baseFeePerGas);
            const call = CALL_TYPES.includes(it.type);
            return [
              it.transactionHash,
              it.index,
              it.blockNumber,
              it.blockHash,
              it.transactionIndex,
              null,
              csvTime(it.timestamp),
              checksum(it.from),
              it.to === null ? null : checksum(it.to),
              it.createdContract === null ? null : checksum(it.createdContract),
              call ? 'call' : it.type,
              call ? it.type : null,
              it.gas,
              it.gasUsed,
              it.value,
              null,
              null,
              it.error,
              price === null || it.gasUsed === null ? null : price * it.gasUsed,
            ];
          });
        }),
      );
    },
});
