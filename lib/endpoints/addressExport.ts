/**
 * The shape the four address exports share (`/addresses/{h}/…/csv`): both periods required, the
 * period's consensus blocks, keyset pages of one port list of the address's records (at most the
 * export limit), and the rows of each page — streamed, never held whole. A module gives what
 * differs: its list, its cursor, its columns and its rows.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { Address } from '../domain/records.ts';
import type { ExportQuery } from '../csv/export.ts';
import { csvBody, CsvText, CSV_EXPORT_LIMIT, emptyPages, EXPORT_QUERY, exportFilename, keysetPages, missingPeriods, periodBlocks } from '../csv/export.ts';
import type { CsvCell } from '../csv/writer.ts';
import { addressHash } from '../params/codecs.ts';
import type { BlockRange, DataSource } from '../ports.ts';
import type { RouteTemplate } from './endpoint.ts';
import { defineEndpoint } from './endpoint.ts';

export interface AddressExport<R, C> {
  readonly route: RouteTemplate;
  readonly summary: string;
  /** the file name's kind: `transactions`, `logs`, … */
  readonly kind: string;
  readonly columns: readonly string[];
  /** one page of the address's records in the period's blocks, in the export's order */
  readonly list: (ds: DataSource, address: Address, query: ExportQuery, blocks: BlockRange) => (after: C | null, limit: number) => Promise<readonly R[]>;
  /** the keyset cursor of a record */
  readonly keyOf: (record: R) => C;
  /** the CSV rows of one page (batch lookups per page, never per row) */
  readonly rows: (ds: DataSource, address: Address, page: readonly R[]) => Promise<readonly (readonly CsvCell[])[]>;
}

export function defineAddressExport<R, C>(spec: AddressExport<R, C>) {
  return defineEndpoint({
    route: spec.route,
    summary: spec.summary,
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
          blocks === null ? emptyPages<R>() : keysetPages<R, C>(spec.list(ds, address, query, blocks), spec.keyOf, csvExportLimit ?? CSV_EXPORT_LIMIT);
        return E.right(csvBody(exportFilename(spec.kind, address, rawQuery), spec.columns, pages, (page) => spec.rows(ds, address, page)));
      },
  });
}
