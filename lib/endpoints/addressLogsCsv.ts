/**
 * GET /addresses/{address_hash_param}/logs/csv — the logs the address emitted in the period's
 * blocks, newest first, at most the export limit, as Blockscout's columns.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { LogRecord } from '../domain/records.ts';
import { csvBody, CsvText, CSV_EXPORT_LIMIT, emptyPages, EXPORT_QUERY, exportFilename, keysetPages, missingPeriods, periodBlocks } from '../csv/export.ts';
import { addressHash } from '../params/codecs.ts';
import type { LogCursor } from '../ports.ts';
import { checksum } from '../render/format.ts';
import { defineEndpoint } from './endpoint.ts';

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

export const addressLogsCsv = defineEndpoint({
  route: '/addresses/{address_hash_param}/logs/csv',
  summary: 'Export the logs an address emitted in a period as CSV (streamed)',
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
      const pages =
        blocks === null
          ? emptyPages<LogRecord>()
          : keysetPages<LogRecord, LogCursor>(
              (after, limit) => ds.listLogs({ address, blocks }, { after, limit, order: 'desc' }),
              (l) => ({ blockNumber: l.blockNumber, index: l.index }),
              csvExportLimit ?? CSV_EXPORT_LIMIT,
            );
      return E.right(
        csvBody(exportFilename('logs', address, rawQuery), LOG_CSV_COLUMNS, pages, async (logs) =>
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
        ),
      );
    },
});
