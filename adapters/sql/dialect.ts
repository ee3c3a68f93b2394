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
 * - A set of rows as a table in one binding (the writer's bulk statements): a JSON array of
 *   objects read by json_each on SQLite, by json_populate_recordset (typed by the table's own
 *   row type) on Postgres. And the one planner hint the writer needs: a key read by the
 *   primary key (SQLite's planner, without statistics, prefers a covering index of a shorter prefix).
 * - A multi-column key list: an OR of equalities on SQLite (each term an index seek), a join
 *   against unnest(arrays) on Postgres (one parameter per column, however many keys).
 * - The shape of a raw result (an array / `{ rows }`), the connection settings (a SQLite file
 *   in WAL with a read-only pool; a Postgres pool with a search path) and the schema a store
 *   lives in (Postgres creates it; a SQLite file is its own).
 * - Names matched by prefix and sorted: lower-casing of ASCII letters only, in code point order
 *   (SQLite: lower() and BINARY; Postgres: lower() and comparisons under COLLATE "C").
 * Everything else (upserts with ON CONFLICT … DO UPDATE / DO NOTHING, row-value comparisons, window
 * functions, JSON-as-text arrays) is written once for both.
 */
import type { Knex } from 'knex';
import type { AllConnection } from './packedRows.ts';
import { packRows } from './packedRows.ts';
import { isPreparingConnection, prepareReads } from './preparedReads.ts';
import type { QueryingClient } from './namedStatements.ts';
import { nameStatements } from './namedStatements.ts';

export type DialectName = 'sqlite' | 'postgres';

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

/** How to connect: the database URL and the pool wanted. */
export interface ConnectOptions {
  /** Postgres: the schema to use */
  readonly searchPath?: string;
  /** Postgres: most pooled connections (default 10) */
  readonly poolSize?: number;
  /**
   * a pool for the reads only, of this many connections (0: the pool of the writes): a SQLite
   * file's read-only connections with kept statements; Postgres connections with named statements
   */
  readonly readers?: number;
}

export interface Dialect {
  readonly name: DialectName;
  /** whether a commit can be announced to other connections (Postgres NOTIFY); else they poll */
  readonly notifies: boolean;
  /**
   * Hold a lock named `name` until `trx` ends, so that writers taking it go one at a time:
   * Postgres a transaction advisory lock of the schema (the single-key space: the lease uses two
   * keys); SQLite nothing, its writes are one at a time already.
   */
  exclusive(trx: Knex.Transaction, name: string): Promise<void>;
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
  /**
   * a big-integer (bigColumn) expression or `?` as an SQL integer, for SUM and comparisons of
   * sums (SQLite: CAST to its 64-bit INTEGER; Postgres: numeric already)
   */
  asInteger(sql: string): string;
  /** decode an idKey (sentinel → null) */
  fromIdKey(v: unknown): bigint | null;
  /**
   * a table (`(SELECT …)`, to alias) with `columns` of `table`, read from one binding, the text
   * jsonBinding gives for the same columns (a missing key or a JSON null reads as NULL)
   */
  jsonRows(table: string, columns: readonly string[]): string;
  /** jsonRows' binding: `rows` (objects keyed by column) for `columns` */
  jsonBinding(columns: readonly string[], rows: readonly Readonly<Record<string, Binding | undefined>>[]): string;
  /** jsonRows' binding: `keys`, each a row of `columns` in their order */
  jsonKeysBinding(columns: readonly string[], keys: readonly (readonly Binding[])[]): string;
  /**
   * put after a table's name: read it by its primary key (SQLite: INDEXED BY the key's
   * autoindex, which its planner passes over, without statistics, for a covering index of a
   * shorter prefix; Postgres: nothing)
   */
  byPrimaryKey(table: string): string;
  /**
   * `keys` as a one-column table from one binding, the body of `WITH k (k_hash) AS (…)`: the
   * statement's text is the same however many keys, so it is prepared once (SQLite: json_each of
   * a JSON array; Postgres: unnest of a text array)
   */
  readonly keyTable: string;
  /** keyTable's binding */
  keyTableBinding(keys: readonly string[]): string;
  /** rows whose key columns (two or more) equal one of `keys` (never empty) */
  keysIn(columns: readonly KeyColumn[], keys: readonly (readonly Binding[])[]): Cond;
  /**
   * a text column that sorts and compares by code point (SQLite's BINARY; Postgres: COLLATE "C")
   */
  codeOrderText(table: Knex.CreateTableBuilder, column: string): Knex.ColumnBuilder;
  /** SQL lower-casing ASCII letters only (domain/text.ts asciiLower), in code point order */
  asciiLower(expr: string): string;
  /**
   * the columns as one JSON array of texts (SQLite's integers stay numbers), one cell instead of
   * many: the SQLite driver's cost is per cell, so a wide row of a long list reads faster packed
   */
  jsonArray(columns: readonly string[]): string;
  /** the cell of a jsonArray column, as its values (Postgres: the driver parsed it already) */
  fromJsonArray(v: unknown): readonly unknown[];
  /**
   * FROM `table AS alias` read through `index`: SQLite's INDEXED BY (its planner would rather
   * range-scan a selective-looking index and sort); Postgres' planner picks by its statistics
   */
  through(table: string, alias: string, index: string): string;
  /** the rows of a knex.raw result */
  rawRows(result: unknown): unknown;
  /** knex settings for a URL of this dialect */
  knexConfig(url: string, options: ConnectOptions): Knex.Config;
  /** make the store's namespace exist before migrating (Postgres: the schema) */
  prepare(knex: Knex, options: ConnectOptions): Promise<void>;
  /**
   * upkeep after a bulk load (DataSink.settle): SQLite ANALYZE (planner statistics); Postgres
   * VACUUM (ANALYZE) of the store's own tables (statistics, and the visibility map that lets
   * index-only reads skip the table), outside any transaction as VACUUM requires
   */
  settle(knex: Knex): Promise<void>;
  /**
   * the definitions (CREATE INDEX statements) of those of `names` that exist in the store
   * (SQLite: sqlite_master.sql; Postgres: pg_indexes.indexdef in the current schema)
   */
  indexDefinitions(knex: Knex, names: readonly string[]): Promise<{ name: string; definition: string }[]>;
  /**
   * run CREATE INDEX statements (settle's rebuild of deferred indexes) in `trx`: SQLite with
   * two sorter threads (PRAGMA threads, restored after; a larger page cache made the rebuild
   * slower); Postgres as they are (a larger maintenance_work_mem did not shorten its rebuild;
   * figures for both: bench/RESULTS.md)
   */
  buildIndexes(trx: Knex.Transaction, statements: readonly string[]): Promise<void>;
}

function definitions(rows: unknown): { name: string; definition: string }[] {
  if (!Array.isArray(rows)) throw new TypeError('unexpected raw query result');
  return rows.map((r: unknown) => {
    const o = r as { name?: unknown; definition?: unknown };
    return { name: String(o.name), definition: String(o.definition) };
  });
}

/**
 * The writer's page cache, KiB (SQLite's default: 2,000 KiB). The writer keeps indexes keyed by
 * block hash (bulk.ts KEPT_INDEXES), which a new block's rows reach at random pages; with the
 * default cache a 1M-transaction bulk load ran at 2,921 tx/s, with this one at 3,193 (bench/RESULTS.md
 * entry 37). A ceiling, not an allocation: the cache holds only pages the writer has read.
 */
const WRITER_CACHE_KIB = 262_144;

export class UnsupportedDatabaseUrl extends Error {
  override readonly name = 'UnsupportedDatabaseUrl';
}

/** The file of a `sqlite:<path>` URL (`:memory:` included); null for other URLs. */
export function sqliteFile(url: string): string | null {
  if (!url.startsWith('sqlite:')) return null;
  const filename = url.slice('sqlite:'.length);
  if (filename === '') throw new UnsupportedDatabaseUrl(`sqlite URL without a path: ${url}`);
  return filename;
}

interface SqliteConnection extends AllConnection {
  run(sql: string, done: (err: Error | null) => void): void;
}
function isSqliteConnection(c: unknown): c is SqliteConnection {
  return typeof c === 'object' && c !== null && 'run' in c && typeof c.run === 'function' && 'all' in c && typeof c.all === 'function';
}

/**
 * The writer's transactions take the write lock up front: knex's sqlite3 client opens each with a plain
 * `BEGIN;` (deferred), and a deferred transaction that read first and then writes while another
 * connection holds a read snapshot gets SQLITE_BUSY at once, busy_timeout does not apply to that upgrade.
 * `BEGIN IMMEDIATE` waits (busy_timeout) for the lock before the transaction's first statement instead.
 */
function beginImmediate(conn: AllConnection): void {
  const all = conn.all.bind(conn);
  conn.all = (sql, bindings, callback) => all(sql === 'BEGIN;' ? 'BEGIN IMMEDIATE;' : sql, bindings, callback);
}

function isQueryingClient(c: unknown): c is QueryingClient {
  return typeof c === 'object' && c !== null && 'query' in c && typeof c.query === 'function';
}

/** A Postgres array literal of text elements (each quoted, `"` and `\` escaped). */
function pgArray(values: readonly Binding[]): string {
  return `{${values.map((v) => `"${String(v).replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;
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

function jsonValues(v: unknown): readonly unknown[] {
  if (!Array.isArray(v)) throw new TypeError('expected a JSON array from the database');
  return v;
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
  notifies: false,
  exclusive: async () => {},
  asInteger: (sql) => `CAST(${sql} AS INTEGER)`,
  bigColumn: (t, c) => t.text(c),
  keyColumn: (t, c) => t.text(c),
  big: (v) => v.toString(),
  key: padKey,
  idKey: (v) => (v === null ? '' : padKey(v)),
  probe: (v) => (v === null ? '' : padKey(clamp(v))),
  fromIdKey: (v) => (v === '' || v === null ? null : toBig(v)),
  // rows as JSON arrays (no key names to write, read and match), each parsed once into JSONB
  // (materialized: not re-parsed per column) and its columns read from that by position: ->>
  // on a wide row's text re-parsed it per column, a cost growing with the row's width
  jsonRows: (_table, columns) =>
    `(WITH r AS MATERIALIZED (SELECT jsonb(value) AS j FROM json_each(?)) SELECT ${columns.map((c, i) => `j ->> ${i} AS "${c}"`).join(', ')} FROM r)`,
  jsonBinding: (columns, rows) => JSON.stringify(rows.map((r) => columns.map((c) => r[c] ?? null))),
  jsonKeysBinding: (columns, keys) => JSON.stringify(keys.map((k) => columns.map((_, i) => k[i] ?? null))),
  byPrimaryKey: (table) => ` INDEXED BY sqlite_autoindex_${table}_1`,
  keyTable: 'SELECT value FROM json_each(?)',
  keyTableBinding: (keys) => JSON.stringify(keys),
  keysIn(columns, keys) {
    const one = `(${columns.map((c) => `${c.sql} = ?`).join(' AND ')})`;
    return { sql: `(${keys.map(() => one).join(' OR ')})`, bindings: keys.flat() };
  },
  codeOrderText: (t, c) => t.text(c),
  jsonArray: (columns) => `json_array(${columns.join(', ')})`,
  fromJsonArray: (v) => jsonValues(typeof v === 'string' ? JSON.parse(v) : v),
  // SQLite's lower() folds ASCII only (no ICU); BINARY collation is UTF-8 byte order
  asciiLower: (expr) => `lower(${expr})`,
  through: (table, alias, index) => `${table} AS ${alias} INDEXED BY ${index}`,
  rawRows: (result) => {
    if (Array.isArray(result)) return result;
    throw new TypeError('unexpected raw query result');
  },
  knexConfig(url, options) {
    const filename = sqliteFile(url);
    if (filename === null) throw new UnsupportedDatabaseUrl(`not a sqlite URL: ${url}`);
    const inMemory = filename === ':memory:';
    const reading = (options.readers ?? 0) > 0 && !inMemory;
    return {
      client: 'sqlite3',
      connection: { filename },
      useNullAsDefault: true,
      pool: {
        min: reading ? 0 : 1,
        max: reading ? (options.readers ?? 1) : 1,
        afterCreate: (conn: unknown, done: (err: Error | null, conn: unknown) => void) => {
          if (!isSqliteConnection(conn)) return done(new Error('unexpected sqlite3 connection'), conn);
          const pragmas = inMemory
            ? []
            : reading
              ? ['PRAGMA busy_timeout = 5000', 'PRAGMA query_only = ON']
              : // busy_timeout first: switching a new file to WAL needs a lock another opener may hold
                ['PRAGMA busy_timeout = 5000', 'PRAGMA journal_mode = WAL', 'PRAGMA synchronous = NORMAL', `PRAGMA cache_size = -${WRITER_CACHE_KIB}`];
          // the read-only pool runs its reads through kept statements (preparedReads.ts), answered packed (packedRows.ts)
          if (reading) {
            if (isPreparingConnection(conn)) prepareReads(conn);
            packRows(conn);
          } else if (!inMemory) beginImmediate(conn);
          const next = (i: number): void => {
            if (i === pragmas.length) return done(null, conn);
            conn.run(pragmas[i], (err) => (err === null ? next(i + 1) : done(err, conn)));
          };
          next(0);
        },
      },
    };
  },
  prepare: async () => {},
  async settle(knex) {
    await knex.raw('ANALYZE');
  },
  async indexDefinitions(knex, names) {
    if (names.length === 0) return [];
    const result: unknown = await knex.raw(
      `SELECT name, sql AS definition FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND name IN (${names.map(() => '?').join(', ')}) ORDER BY name`,
      [...names],
    );
    return definitions(sqlite.rawRows(result));
  },
  async buildIndexes(trx, statements) {
    if (statements.length === 0) return;
    const rows = sqlite.rawRows(await trx.raw('PRAGMA threads'));
    const first: unknown = Array.isArray(rows) ? rows[0] : undefined;
    const threads = typeof first === 'object' && first !== null ? Object.values(first)[0] : undefined;
    if (typeof threads !== 'number') throw new TypeError('unexpected PRAGMA threads result');
    await trx.raw('PRAGMA threads = 2');
    try {
      for (const sql of statements) await trx.raw(sql);
    } finally {
      await trx.raw(`PRAGMA threads = ${threads}`);
    }
  },
};

const postgres: Dialect = {
  name: 'postgres',
  notifies: true,
  exclusive: async (trx, name) => {
    await trx.raw("SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.' || ?))", [name]);
  },
  asInteger: (sql) => (sql === '?' ? 'CAST(? AS NUMERIC)' : sql),
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
  jsonRows: (table, columns) => `(SELECT ${columns.map((c) => `"${c}"`).join(', ')} FROM json_populate_recordset(NULL::"${table}", CAST(? AS json)))`,
  jsonBinding: (_columns, rows) => JSON.stringify(rows),
  jsonKeysBinding: (columns, keys) => JSON.stringify(keys.map((k) => Object.fromEntries(columns.map((c, i) => [c, k[i] ?? null])))),
  byPrimaryKey: () => '',
  keyTable: 'SELECT unnest(CAST(? AS text[]))',
  keyTableBinding: (keys) => pgArray(keys),
  keysIn(columns, keys) {
    const arrays = columns.map((c) => `CAST(? AS ${c.numeric ? 'numeric' : 'text'}[])`);
    return {
      sql: `(${columns.map((c) => c.sql).join(', ')}) IN (SELECT * FROM unnest(${arrays.join(', ')}))`,
      bindings: columns.map((_, i) => pgArray(keys.map((k) => k[i]))),
    };
  },
  codeOrderText: (t, c) => t.specificType(c, 'text COLLATE "C"'),
  // numeric as text: a JSON number would lose the digits of a uint256
  jsonArray: (columns) => `json_build_array(${columns.map((c) => `(${c})::text`).join(', ')})`,
  fromJsonArray: (v) => jsonValues(v),
  // under the "C" collation lower() folds ASCII only, and the result keeps the byte order
  asciiLower: (expr) => `lower(${expr} COLLATE "C")`,
  through: (table, alias) => `${table} AS ${alias}`,
  rawRows: (result) => {
    if (typeof result === 'object' && result !== null && 'rows' in result) return result.rows;
    throw new TypeError('unexpected raw query result');
  },
  knexConfig: (url, options) => ({
    client: 'pg',
    connection: url,
    ...(options.searchPath === undefined ? {} : { searchPath: [options.searchPath] }),
    pool:
      (options.readers ?? 0) > 0
        ? {
            min: 0,
            max: options.readers,
            // the reads' pool runs repeated statements named: parsed once per connection, a generic
            // plan kept when it is as cheap (namedStatements.ts); the writes' statements stay unnamed
            // (named, their generic plans made the load slower: bench/RESULTS.md)
            afterCreate: (conn: unknown, done: (err: Error | null, conn: unknown) => void) => {
              if (!isQueryingClient(conn)) return done(new Error('unexpected pg connection'), conn);
              nameStatements(conn);
              done(null, conn);
            },
          }
        : { min: 0, max: options.poolSize ?? 10 },
  }),
  async prepare(knex, options) {
    if (options.searchPath !== undefined) await knex.raw('CREATE SCHEMA IF NOT EXISTS ??', [options.searchPath]);
  },
  async settle(knex) {
    const result: unknown = await knex.raw('SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename');
    const rows = postgres.rawRows(result);
    const names = Array.isArray(rows) ? rows.map((r: unknown) => `"${String((r as { tablename?: unknown }).tablename).replace(/"/g, '""')}"`) : [];
    if (names.length > 0) await knex.raw(`VACUUM (ANALYZE) ${names.join(', ')}`);
  },
  async indexDefinitions(knex, names) {
    if (names.length === 0) return [];
    const result: unknown = await knex.raw(
      `SELECT indexname AS name, indexdef AS definition FROM pg_indexes WHERE schemaname = current_schema() AND indexname IN (${names.map(() => '?').join(', ')}) ORDER BY indexname`,
      [...names],
    );
    return definitions(postgres.rawRows(result));
  },
  async buildIndexes(trx, statements) {
    if (statements.length === 0) return;
    for (const sql of statements) await trx.raw(sql);
  },
};

/** The dialect of a database URL: `sqlite:<path>` or `postgres://…`. */
export function dialectOfUrl(url: string): Dialect {
  if (sqliteFile(url) !== null) return sqlite;
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return postgres;
  throw new UnsupportedDatabaseUrl(`unsupported database URL (sqlite:<path> or postgres://…): ${url}`);
}

export function dialectOf(knex: Knex): Dialect {
  const client: unknown = knex.client.config.client;
  if (client === 'sqlite3' || client === 'better-sqlite3') return sqlite;
  if (client === 'pg' || client === 'postgres' || client === 'postgresql') return postgres;
  throw new Error(`unsupported knex client: ${String(client)}`);
}
