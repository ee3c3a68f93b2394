/**
 * What every CSV export shares: its parameters (`from_period`, `to_period`, `filter_type`,
 * `filter_value`), the period → block range mapping, the row bound, and the streamed body
 * built page by page from a keyset port list. An export is one module in lib/endpoints that
 * names its columns and turns a page of records into rows.
 */
import * as t from 'io-ts';
import type { Address, Hash, TransactionRecord } from '../domain/records.ts';
import type { ApiError } from '../errors.ts';
import { invalidParams } from '../errors.ts';
import { describedString, withSchema } from '../openapi/jsonSchema.ts';
import type { ParamCodec } from '../params/codecs.ts';
import { firstBlockAtOrAfter } from '../paging/blockTime.ts';
import type { BlockRange, DataSource, Direction } from '../ports.ts';
import { transactionFee } from '../render/transaction.ts';
import { StreamedBody } from '../streamed.ts';
import type { CsvCell } from './writer.ts';
import { csvRecord } from './writer.ts';

/** Rows per export unless the explorer is told otherwise: Blockscout's CSV_EXPORT_LIMIT default. */
export const CSV_EXPORT_LIMIT = 10_000;
/** Records read per port call while streaming (one chunk per page). */
export const CSV_PAGE_SIZE = 100;
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/**
 * The 200 body as our OpenAPI document describes it (media type text/csv). A codec of its own
 * (a schema attached to io-ts's shared `t.string` would describe every string as CSV); its
 * `mediaType` (a StreamCodec, lib/endpoints/endpoint.ts) types the handler's answer as a stream, and the typed client's.
 */
export const CsvText = Object.assign(
  describedString('CsvText', { type: 'string', description: 'RFC 4180 CSV: a header record, then one record per row (CRLF)' }),
  { mediaType: 'text/csv' as const },
);
export type CsvCodec = typeof CsvText;

// ---- parameters -------------------------------------------------------------------------------

/** The official documents' pattern for `from_period` / `to_period` (`:` and `+` may come percent-encoded). */
export const PERIOD_PATTERN =
  '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])(?:T(?:[01]\\d|2[0-3])(?:(?::|%3A)[0-5]\\d(?:(?::|%3A)[0-5]\\d(?:\\.\\d{1,9})?)?)?(?:Z|(?:\\+|%2B|-)(?:[01]\\d|2[0-3])(?:(?::|%3A)[0-5]\\d)?)?)?$';
const PERIOD_RE = new RegExp(PERIOD_PATTERN);
const PARTS_RE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2})(?::(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|([+-])(\d{2})(?::(\d{2}))?)?)?$/;

/** A point in time: a whole UTC day (a date alone) or an instant, in unix seconds (possibly fractional). */
export type Period = { readonly kind: 'date'; readonly start: number } | { readonly kind: 'instant'; readonly at: number };

const NULL_STRING_CAST = 'Failed to cast value using any of: Schema(title: "NullString", type: :string), Schema(type: :string)';
const NULL_FORMAT = 'Invalid format. Expected ~r/^null$/';

function parsePeriod(raw: string): Period | null {
  if (!PERIOD_RE.test(raw)) return null;
  const m = PARTS_RE.exec(raw.replace(/%3A/g, ':').replace(/%2B/g, '+'));
  if (m === null) return null;
  const [, y, mo, d, h, mi, s, frac, zone, sign, zh, zm] = m;
  const day = Date.UTC(Number(y), Number(mo) - 1, Number(d));
  // 2024-02-31 matches the pattern: refuse a day the calendar does not have
  if (new Date(day).toISOString().slice(0, 10) !== `${y}-${mo}-${d}`) return null;
  if (h === undefined) return { kind: 'date', start: day / 1000 };
  const offset = zone === undefined || zone === 'Z' ? 0 : (sign === '-' ? -1 : 1) * (Number(zh) * 3600 + Number(zm ?? 0) * 60);
  const seconds = day / 1000 + Number(h) * 3600 + Number(mi ?? 0) * 60 + Number(s ?? 0) + Number(`0.${frac ?? '0'}`);
  return { kind: 'instant', at: seconds - offset };
}

/** `from_period` / `to_period`: a date or an ISO 8601 date-time (no zone: UTC); `null` or absent: open. */
export const period: ParamCodec<Period | null, string | Date | null> = withSchema(
  new t.Type<Period | null, string, unknown>(
    'Period',
    (_u): _u is Period | null => false,
    (u, c) => {
      if (typeof u !== 'string') return t.failure(u, c, `Invalid string. Got: ${typeof u}`);
      if (u === 'null') return t.success(null);
      const p = parsePeriod(u);
      if (p !== null) return t.success(p);
      return t.failures([NULL_STRING_CAST, `Invalid format. Expected ~r/${PERIOD_PATTERN}/`, NULL_FORMAT].map((message) => ({ value: u, context: c, message })));
    },
    (p) => (p === null ? 'null' : new Date((p.kind === 'date' ? p.start : p.at) * 1000).toISOString()),
  ),
  {
    anyOf: [{ type: 'string', pattern: PERIOD_PATTERN }, { type: 'string', enum: ['null'] }],
    description: 'a date (`2024-03-21`: the whole UTC day) or an ISO 8601 date-time (no zone: UTC); `null`: open',
  },
);

function nullableEnum<const V extends string>(values: readonly V[]): ParamCodec<V | null> {
  return withSchema(
    new t.Type<V | null, string, unknown>(
      'NullableEnum',
      (_u): _u is V | null => false,
      (u, c) => {
        if (typeof u !== 'string') return t.failure(u, c, `Invalid string. Got: ${typeof u}`);
        if (u === 'null') return t.success(null);
        if ((values as readonly string[]).includes(u)) return t.success(u as V);
        return t.failures([NULL_STRING_CAST, 'Invalid value for enum', NULL_FORMAT].map((message) => ({ value: u, context: c, message })));
      },
      (v) => v ?? 'null',
    ),
    { type: 'string', enum: [...values, 'null'] },
  );
}

/** The query every address export declares, as the official documents do. */
export const EXPORT_QUERY = {
  from_period: period,
  to_period: period,
  filter_type: nullableEnum(['address']),
  filter_value: nullableEnum(['to', 'from']),
} as const;

export interface ExportQuery {
  readonly from_period?: Period | null;
  readonly to_period?: Period | null;
  readonly filter_type?: 'address' | null;
  readonly filter_value?: 'to' | 'from' | null;
}

/** The address exports require both periods (the documents mark them required): 422 `Missing field` otherwise. */
export function missingPeriods(rawQuery: Readonly<Record<string, string>>): ApiError | null {
  const missing = ['from_period', 'to_period'].filter((name) => rawQuery[name] === undefined);
  return missing.length === 0 ? null : invalidParams(missing.map((name) => ({ name, detail: `Missing field: ${name}` })));
}

/** `filter_type=address&filter_value=to|from` → that side; anything else → either side. */
export const directionOf = (q: ExportQuery): Direction =>
  q.filter_type === 'address' && (q.filter_value === 'to' || q.filter_value === 'from') ? q.filter_value : 'any';

// ---- period → blocks ----------------------------------------------------------------------------

/**
 * The consensus blocks of a period: from the first block at or after `from` to the last block
 * at or before `to` (a date `to` covers its whole day). Null when no block is in it. Costs two
 * binary searches over block numbers (no scan).
 */
export async function periodBlocks(ds: DataSource, from: Period | null | undefined, to: Period | null | undefined): Promise<BlockRange | null> {
  const head = await ds.getHighestBlockNumber();
  if (head === null) return null;
  const fromTs = from == null ? null : Math.ceil(from.kind === 'date' ? from.start : from.at);
  const toTs = to == null ? null : Math.floor(to.kind === 'date' ? to.start + 86_399 : to.at);
  const first = fromTs === null ? 0 : await firstBlockAtOrAfter(ds, head, fromTs);
  const last = toTs === null ? head : (await firstBlockAtOrAfter(ds, head, toTs + 1)) - 1;
  return first > last ? null : { from: first, to: last };
}

// ---- streaming ---------------------------------------------------------------------------------

/**
 * Pages of a keyset list, at most `max` records in all: `read(after, limit)` is a port list in
 * its order, `key` the cursor of a record. One port call per page, never more than one page held.
 */
export async function* keysetPages<R, C>(
  read: (after: C | null, limit: number) => Promise<readonly R[]>,
  key: (r: R) => C,
  max: number,
  pageSize: number = CSV_PAGE_SIZE,
): AsyncGenerator<readonly R[]> {
  let after: C | null = null;
  let left = max;
  while (left > 0) {
    const limit = Math.min(pageSize, left);
    const rows = await read(after, limit);
    if (rows.length > 0) yield rows;
    left -= rows.length;
    const last = rows[rows.length - 1];
    if (rows.length < limit || last === undefined) return;
    after = key(last);
  }
}

/** Header record, then one chunk per page of records turned into rows. */
async function* csvChunks<R>(
  header: readonly string[],
  pages: AsyncIterable<readonly R[]>,
  rows: (page: readonly R[]) => Promise<readonly (readonly CsvCell[])[]>,
): AsyncGenerator<string> {
  yield csvRecord(header);
  for await (const page of pages) {
    const out = await rows(page);
    if (out.length > 0) yield out.map(csvRecord).join('');
  }
}

/** A streamed CSV answer. */
export function csvBody<R>(
  filename: string,
  header: readonly string[],
  pages: AsyncIterable<readonly R[]>,
  rows: (page: readonly R[]) => Promise<readonly (readonly CsvCell[])[]>,
): StreamedBody {
  return new StreamedBody(CSV_CONTENT_TYPE, filename, csvChunks(header, pages, rows));
}

/** An empty period: the header record alone. */
export const emptyPages = async function* <R>(): AsyncGenerator<readonly R[]> {};

/** `transactions_0xabc…_2024-01-01_2024-02-01.csv` (open ends: `start`, `end`). */
export function exportFilename(kind: string, address: Address, rawQuery: Readonly<Record<string, string>>): string {
  const part = (name: string, open: string) => {
    const v = rawQuery[name];
    return v === undefined || v === 'null' ? open : v.replace(/%3A/gi, ':').replace(/%2B/gi, '+').replace(/[^0-9A-Za-z.+-]/g, '-');
  };
  return `${kind}_${address}_${part('from_period', 'start')}_${part('to_period', 'end')}.csv`;
}

// ---- cell formats -------------------------------------------------------------------------------

/** Block time as Blockscout's exports print it (Elixir's DateTime): `2024-03-21 10:15:23.000000Z`. */
export function csvTime(unixSeconds: number): string {
  return `${new Date(unixSeconds * 1000).toISOString().slice(0, 19).replace('T', ' ')}.000000Z`;
}

/** `OUT` when the address sends, `IN` when it receives, else empty (Blockscout's Type column). */
export const sideOf = (address: Address, from: Address, to: Address | null): string => (from === address ? 'OUT' : to === address ? 'IN' : '');

/**
 * `value / 10^decimals` exactly, in XSD canonical decimal form (as Blockscout's holders export):
 * at least one digit each side of the point, no trailing zeros (`1.0`, `0.5`, `12.345`).
 */
export function xsdDecimal(value: bigint, decimals: bigint | null): string {
  const d = decimals === null || decimals <= 0n ? 0 : Number(decimals);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(d + 1, '0');
  const whole = digits.slice(0, digits.length - d);
  const fraction = digits.slice(digits.length - d).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}.${fraction === '' ? '0' : fraction}`;
}

/** The transactions of a page's records, by hash (one batch lookup, or one point lookup per distinct transaction without it). */
export async function transactionsOf(ds: DataSource, hashes: readonly Hash[]): Promise<ReadonlyMap<Hash, TransactionRecord>> {
  const unique = [...new Set(hashes)];
  const found = ds.getTransactions !== undefined ? await ds.getTransactions(unique) : await Promise.all(unique.map((h) => ds.getTransaction(h)));
  return new Map(found.filter((tx): tx is TransactionRecord => tx !== null).map((tx) => [tx.hash, tx]));
}

/** Blockscout's fee cell: the fee paid, or `Max of <gas × price>` while it is not known. */
export function feeCell(tx: TransactionRecord | undefined): string | null {
  if (tx === undefined) return null;
  const fee = transactionFee(tx);
  if (typeof fee.value !== 'string') return null;
  return fee.type === 'actual' ? fee.value : `Max of ${fee.value}`;
}
