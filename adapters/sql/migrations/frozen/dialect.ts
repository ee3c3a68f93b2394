/**
 * The dialect as the migrations ran with it: the column types, encodings and SQL forms they
 * use, copied from adapters/sql/dialect.ts at 6a6eefb. Frozen: a migration that has run must
 * do the same on every store that runs it later, so nothing here changes what it returns or
 * writes. A new migration that needs something else adds its own (a new function, or a new
 * file next to this one); live code never imports from migrations/ (test/adapters/sql/migrations-frozen.test.ts).
 */
import type { Knex } from 'knex';

export type Binding = string | number | boolean | null;
/** A SQL condition with its bindings. */
export interface Cond {
  readonly sql: string;
  readonly bindings: readonly Binding[];
}
/** A key column of a multi-column condition: its SQL (quoted, maybe aliased) and whether it holds numbers. */
export interface KeyColumn {
  readonly sql: string;
  readonly numeric: boolean;
}

export interface MigrationDialect {
  readonly name: 'sqlite' | 'postgres';
  /** a big integer column (numeric(78,0) / decimal TEXT) */
  bigColumn(table: Knex.CreateTableBuilder, column: string): Knex.ColumnBuilder;
  /** a big integer column that is sorted or compared (numeric(78,0) / 78-digit TEXT) */
  keyColumn(table: Knex.CreateTableBuilder, column: string): Knex.ColumnBuilder;
  /** a text column that sorts and compares by code point (SQLite's BINARY; Postgres: COLLATE "C") */
  codeOrderText(table: Knex.CreateTableBuilder, column: string): Knex.ColumnBuilder;
  /** encode for a bigColumn */
  big(v: bigint): string;
  /** encode for a keyColumn */
  key(v: bigint): string;
  /** SQL lower-casing ASCII letters only, in code point order */
  asciiLower(expr: string): string;
  /** the rows of a knex.raw result */
  rawRows(result: unknown): unknown;
  /** a table (`(SELECT …)`, to alias) with `columns` of `table`, read from one binding */
  jsonRows(table: string, columns: readonly string[]): string;
  /** jsonRows' binding: `rows` (objects keyed by column) for `columns` */
  jsonBinding(columns: readonly string[], rows: readonly Readonly<Record<string, Binding | undefined>>[]): string;
  /** jsonRows' binding: `keys`, each a row of `columns` in their order */
  jsonKeysBinding(columns: readonly string[], keys: readonly (readonly Binding[])[]): string;
  /** rows whose key columns (two or more) equal one of `keys` (never empty) */
  keysIn(columns: readonly KeyColumn[], keys: readonly (readonly Binding[])[]): Cond;
}

const WIDTH = 78;
const TEN_78 = 10n ** 78n;

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

/** A Postgres array literal of text elements (each quoted, `"` and `\` escaped). */
function pgArray(values: readonly Binding[]): string {
  return `{${values.map((v) => `"${String(v).replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}

const sqlite: MigrationDialect = {
  name: 'sqlite',
  bigColumn: (t, c) => t.text(c),
  keyColumn: (t, c) => t.text(c),
  codeOrderText: (t, c) => t.text(c),
  big: (v) => v.toString(),
  key: padKey,
  asciiLower: (expr) => `lower(${expr})`,
  rawRows: (result) => {
    if (Array.isArray(result)) return result;
    throw new TypeError('unexpected raw query result');
  },
  jsonRows: (_table, columns) =>
    `(WITH r AS MATERIALIZED (SELECT jsonb(value) AS j FROM json_each(?)) SELECT ${columns.map((c, i) => `j ->> ${i} AS "${c}"`).join(', ')} FROM r)`,
  jsonBinding: (columns, rows) => JSON.stringify(rows.map((r) => columns.map((c) => r[c] ?? null))),
  jsonKeysBinding: (columns, keys) => JSON.stringify(keys.map((k) => columns.map((_, i) => k[i] ?? null))),
  keysIn(columns, keys) {
    const one = `(${columns.map((c) => `${c.sql} = ?`).join(' AND ')})`;
    return { sql: `(${keys.map(() => one).join(' OR ')})`, bindings: keys.flat() };
  },
};

const postgres: MigrationDialect = {
  name: 'postgres',
  bigColumn: (t, c) => t.decimal(c, 78, 0),
  keyColumn: (t, c) => t.decimal(c, 78, 0),
  codeOrderText: (t, c) => t.specificType(c, 'text COLLATE "C"'),
  big: (v) => v.toString(),
  key: (v) => v.toString(),
  asciiLower: (expr) => `lower(${expr} COLLATE "C")`,
  rawRows: (result) => {
    if (typeof result === 'object' && result !== null && 'rows' in result) return result.rows;
    throw new TypeError('unexpected raw query result');
  },
  jsonRows: (table, columns) => `(SELECT ${columns.map((c) => `"${c}"`).join(', ')} FROM json_populate_recordset(NULL::"${table}", CAST(? AS json)))`,
  jsonBinding: (_columns, rows) => JSON.stringify(rows),
  jsonKeysBinding: (columns, keys) => JSON.stringify(keys.map((k) => Object.fromEntries(columns.map((c, i) => [c, k[i] ?? null])))),
  keysIn(columns, keys) {
    const arrays = columns.map((c) => `CAST(? AS ${c.numeric ? 'numeric' : 'text'}[])`);
    return {
      sql: `(${columns.map((c) => c.sql).join(', ')}) IN (SELECT * FROM unnest(${arrays.join(', ')}))`,
      bindings: columns.map((_, i) => pgArray(keys.map((k) => k[i]))),
    };
  },
};

/** The dialect of the knex instance a migration runs on. */
export function dialectOf(knex: Knex): MigrationDialect {
  const client: unknown = knex.client.config.client;
  if (client === 'sqlite3' || client === 'better-sqlite3') return sqlite;
  if (client === 'pg' || client === 'postgres' || client === 'postgresql') return postgres;
  throw new Error(`unsupported knex client: ${String(client)}`);
}
