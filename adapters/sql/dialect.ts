/**
 * Everything that differs between SQLite and Postgres, in one place.
 *
 * - Big integers. Postgres keeps them in numeric(78,0) (pg hands them back as strings).
 *   SQLite has no exact wide integer, so they are TEXT: plain decimal where the column is only
 *   read back, and a fixed-width key where the column is sorted or compared (balances, token
 *   ids): 78 zero-padded digits, so byte order (SQLite's BINARY collation) is numeric order for
 *   every uint256. Negative values (never expected) still sort correctly: '-' followed by the
 *   78-digit complement 10^78 − |v|, and '-' sorts below '0'.
 * - The null token id of a balance key (fungible balances, ERC-721 counts) must sort below
 *   every id ("null lowest") and be part of a primary key: a sentinel, −1 on Postgres and ''
 *   on SQLite.
 * - The variable limit of one statement and the row limit of one INSERT, which size insert chunks.
 * Everything else (upserts with onConflict().merge()/ignore(), row-value comparisons, window
 * functions, JSON-as-text arrays) is written once for both.
 */
import type { Knex } from 'knex';

export type DialectName = 'sqlite' | 'postgres';

export interface Dialect {
  readonly name: DialectName;
  /** a big integer column (numeric(78,0) / decimal TEXT) */
  bigColumn(table: Knex.CreateTableBuilder, column: string): Knex.ColumnBuilder;
  /** a big integer column that is sorted or compared (numeric(78,0) / 78-digit TEXT) */
  keyColumn(table: Knex.CreateTableBuilder, column: string): Knex.ColumnBuilder;
  /** encode for a bigColumn */
  big(v: bigint): string;
  /** encode for a keyColumn */
  key(v: bigint): string;
  /** encode a nullable token id for a keyColumn: null sorts below every id */
  idKey(v: bigint | null): string;
  /**
   * encode a value read from a request (cursor, filter) for comparison with a keyColumn:
   * never throws; on SQLite values beyond ±(10^78 − 1), which no uint256 reaches, are clamped
   */
  probe(v: bigint | null): string;
  /** decode an idKey (sentinel → null) */
  fromIdKey(v: unknown): bigint | null;
  /** most bound variables one statement may carry */
  readonly maxVariables: number;
  /** most rows of one INSERT (knex writes SQLite multi-row inserts as a compound SELECT: ≤ 500 terms) */
  readonly maxInsertRows: number;
}

const WIDTH = 78;
const TEN_78 = 10n ** 78n;

const MAX_KEY = TEN_78 - 1n;
const clamp = (v: bigint): bigint => (v > MAX_KEY ? MAX_KEY : v < -MAX_KEY ? -MAX_KEY : v);

function padKey(v: bigint): string {
  if (v >= 0n) {
    if (v >= TEN_78) throw new RangeError(`integer too wide for a sort key: ${v}`);
    return v.toString().padStart(WIDTH, '0');
  }
  const m = -v;
  if (m > TEN_78) throw new RangeError(`integer too wide for a sort key: ${v}`);
  return '-' + (TEN_78 - m).toString().padStart(WIDTH, '0');
}

/** Decode any stored big integer: pg numeric string, plain or padded decimal text, number. */
export function toBig(v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) throw new RangeError(`inexact integer from the database: ${v}`);
    return BigInt(v);
  }
  if (typeof v === 'string') {
    if (v.startsWith('-') && v.length === WIDTH + 1) return BigInt(v.slice(1)) - TEN_78;
    return BigInt(v);
  }
  throw new TypeError(`expected an integer from the database, got ${typeof v}`);
}

const sqlite: Dialect = {
  name: 'sqlite',
  bigColumn: (t, c) => t.text(c),
  keyColumn: (t, c) => t.text(c),
  big: (v) => v.toString(),
  key: padKey,
  idKey: (v) => (v === null ? '' : padKey(v)),
  probe: (v) => (v === null ? '' : padKey(clamp(v))),
  fromIdKey: (v) => (v === '' || v === null ? null : toBig(v)),
  maxVariables: 32766,
  maxInsertRows: 400,
};

const postgres: Dialect = {
  name: 'postgres',
  bigColumn: (t, c) => t.decimal(c, 78, 0),
  keyColumn: (t, c) => t.decimal(c, 78, 0),
  big: (v) => v.toString(),
  key: (v) => v.toString(),
  idKey: (v) => (v === null ? '-1' : v.toString()),
  probe: (v) => (v === null ? '-1' : v.toString()),
  fromIdKey: (v) => {
    const b = toBig(v);
    return b === -1n ? null : b;
  },
  maxVariables: 65535,
  maxInsertRows: 1000,
};

export function dialectOf(knex: Knex): Dialect {
  const client: unknown = knex.client.config.client;
  if (client === 'sqlite3' || client === 'better-sqlite3') return sqlite;
  if (client === 'pg' || client === 'postgres' || client === 'postgresql') return postgres;
  throw new Error(`unsupported knex client: ${String(client)}`);
}
