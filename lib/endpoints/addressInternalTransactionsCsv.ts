/**
 * GET /addresses/{address_hash_param}/internal-transactions/csv — the internal transactions
 * from, to or creating the address (`filter_type=address&filter_value=to|from` for one side)
 * in the period's blocks, newest first, at most the export limit, as Blockscout's columns.
 */
import type { InternalTransactionRecord } from '../domain/records.ts';
import { csvTime, directionOf, transactionsOf } from '../csv/export.ts';
import { effectiveGasPrice } from '../ingest/derive.ts';
import type { InternalTransactionCursor } from '../ports.ts';
import { checksum } from '../render/format.ts';
import { defineAddressExport } from './addressExport.ts';

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

export const addressInternalTransactionsCsv = defineAddressExport<InternalTransactionRecord, InternalTransactionCursor>({
  route: '/addresses/{address_hash_param}/internal-transactions/csv',
  summary: 'Export an address’s internal transactions of a period as CSV (streamed)',
  kind: 'internal-transactions',
  columns: INTERNAL_TRANSACTION_CSV_COLUMNS,
  list: (ds, address, query, blocks) => (after, limit) =>
    ds.listInternalTransactions({ address, direction: directionOf(query), blocks }, { after, limit, order: 'desc' }),
  keyOf: (it) => ({ blockNumber: it.blockNumber, transactionIndex: it.transactionIndex, index: it.index }),
  rows: async (ds, _address, its) => {
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
  },
});
