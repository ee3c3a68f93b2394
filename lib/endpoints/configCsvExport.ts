/**
 * GET /config/csv-export — the rows per CSV export (the explorer's `csvExport.limit`, default
 * 10,000 as Blockscout's CSV_EXPORT_LIMIT); exports are streamed as they are read, never queued
 * (`async_enabled: false`).
 */
import * as E from 'fp-ts/lib/Either.js';
import { CSV_EXPORT_LIMIT } from '../csv/export.ts';
import { CsvExportConfig } from '../schema/config.ts';
import { defineEndpoint } from './endpoint.ts';

export const configCsvExport = defineEndpoint({
  route: '/config/csv-export',
  summary: 'CSV export limits: rows per export; exports stream, never queued',
  path: {},
  query: {},
  response: CsvExportConfig,
  handler:
    ({ csvExportLimit }) =>
    () =>
    async () =>
      E.right({ limit: csvExportLimit ?? CSV_EXPORT_LIMIT, async_enabled: false }),
});
