/** GET /config/csv-export — CSV export is not offered: a limit of 0 rows, no async export. */
import * as E from 'fp-ts/lib/Either.js';
import { CsvExportConfig } from '../schema/config.ts';
import { defineEndpoint } from './endpoint.ts';

export const configCsvExport = defineEndpoint({
  route: '/config/csv-export',
  summary: 'CSV export limits (not offered: limit 0)',
  path: {},
  query: {},
  response: CsvExportConfig,
  handler: () => () => async () => E.right({ limit: 0, async_enabled: false }),
});
