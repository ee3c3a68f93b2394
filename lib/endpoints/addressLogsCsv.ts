/**
 * GET /addresses/{address_hash_param}/logs/csv — the logs the address emitted in the period's
 * blocks, newest first, at most the export limit, as Blockscout's columns.
 */
import type { LogRecord } from '../domain/records.ts';
import type { LogCursor } from '../ports.ts';
import { checksum } from '../render/format.ts';
import { defineAddressExport } from './addressExport.ts';

export const LOG_CSV_COLUMNS = [
  'TxHash',
  'Index',
  'BlockNumber',
  'BlockHash',
  'ContractAddress',
  'Data',
  'FirstTopic',
  'SecondTopic',
  'ThirdTopic',
  'FourthTopic',
] as const;

export const addressLogsCsv = defineAddressExport<LogRecord, LogCursor>({
  route: '/addresses/{address_hash_param}/logs/csv',
  summary: 'Export the logs an address emitted in a period as CSV (streamed)',
  kind: 'logs',
  columns: LOG_CSV_COLUMNS,
  list: (ds, address, _query, blocks) => (after, limit) => ds.listLogs({ address, blocks }, { after, limit, order: 'desc' }),
  keyOf: (l) => ({ blockNumber: l.blockNumber, index: l.index }),
  rows: async (_ds, _address, logs) =>
    logs.map((l) => [
      l.transactionHash,
      l.index,
      l.blockNumber,
      l.blockHash,
      checksum(l.address),
      l.data,
      l.topics[0] ?? null,
      l.topics[1] ?? null,
      l.topics[2] ?? null,
      l.topics[3] ?? null,
    ]),
});
