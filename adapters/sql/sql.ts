/**
 * Small SQL building blocks shared by the reader and the writer: multi-column key conditions,
 * bulk inserts and upserts and key sets (a batch's rows as one JSON binding), and the
 * "current value = latest history row" refresh.
 */
import type { Knex } from 'knex';
import type { Binding, Cond, Dialect } from './dialect.ts';
import type { WriteRow } from './rows.ts';

export type { Binding, Cond } from './dialect.ts';

/** Keys per statement for OR-chained multi-column key conditions. */
export const KEY_CHUNK = 200;

/**
 * A statement over a list of `n` keys, its text built once per `n` (at most KEY_CHUNK texts):
 * a page's lookups skip the query builder and its compilation, which cost as much as a small
 * indexed read. `text` receives the placeholders, a list for `in`, e.g. `(?, ?, ?)`.
 */
export function keyListStatement(text: (placeholders: string) => string): (n: number) => string {
  const built = new Map<number, string>();
  return (n) => {
    let sql = built.get(n);
    if (sql === undefined) {
      sql = text(`(${Array.from({ length: n }, () => '?').join(', ')})`);
      built.set(n, sql);
    }
    return sql;
  };
}

export function chunks<T>(xs: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}

/** Key columns compared as numbers (numeric(78,0) on Postgres); every other key column is text. */
const NUMERIC_KEY_COLUMNS: ReadonlySet<string> = new Set(['token_id']);

/**
 * Rows whose key columns equal one of `keys`: `"a" IN (?, …)` for one column; for several,
 * the dialect's multi-column form (Dialect.keysIn).
 */
export function keyCondition(d: Dialect, columns: readonly string[], keys: readonly (readonly Binding[])[], alias?: string): Cond {
  const col = (c: string) => (alias === undefined ? `"${c}"` : `${alias}."${c}"`);
  if (keys.length === 0) return { sql: '1 = 0', bindings: [] };
  if (columns.length === 1) {
    return { sql: `${col(columns[0])} IN (${keys.map(() => '?').join(', ')})`, bindings: keys.map((k) => k[0]) };
  }
  return d.keysIn(columns.map((c) => ({ sql: col(c), numeric: NUMERIC_KEY_COLUMNS.has(c) })), keys);
}

/** Distinct keys (by their JSON form), first occurrence order. */
export function uniqueKeys<K extends readonly Binding[]>(keys: Iterable<K>): K[] {
  const seen = new Map<string, K>();
  for (const k of keys) {
    const id = JSON.stringify(k);
    if (!seen.has(id)) seen.set(id, k);
  }
  return [...seen.values()];
}

/** Keep the last row per key, in the order of those last occurrences. */
export function lastPerKey<T>(rows: readonly T[], key: (r: T) => string): T[] {
  const m = new Map<string, T>();
  for (const r of rows) {
    const k = key(r);
    m.delete(k);
    m.set(k, r);
  }
  return [...m.values()];
}

/**
 * Rows per bulk statement. The rows travel as one JSON text (Dialect.jsonRows), so no driver
 * limit applies; this only bounds the size of one binding.
 */
export const BULK_ROWS = 5000;

/** Every column any of `rows` has, in first-seen order. */
function columnsOf(rows: readonly WriteRow[]): string[] {
  const seen = new Set<string>();
  for (const r of rows) for (const c in r) seen.add(c);
  return [...seen];
}

/**
 * `keys` (each in `columns` order) as a table of `columns` of `table` (for a join; alias it),
 * read from one binding.
 */
export function keyRows(d: Dialect, table: string, columns: readonly string[], keys: readonly (readonly Binding[])[]): Cond {
  return { sql: d.jsonRows(table, columns), bindings: [d.jsonKeysBinding(columns, keys)] };
}

/**
 * Insert rows: one statement per BULK_ROWS rows, bound as one JSON text, whatever their width.
 * `onConflict`: an ON CONFLICT clause (upserts, ignored repeats). A column no row has is left
 * to its default; a row without a column another has writes NULL there.
 */
export async function insertRows(db: Knex | Knex.Transaction, d: Dialect, table: string, rows: readonly WriteRow[], onConflict = ''): Promise<void> {
  if (rows.length === 0) return;
  const columns = columnsOf(rows);
  const list = columns.map((c) => `"${c}"`).join(', ');
  // WHERE true: SQLite's parser needs it between a SELECT and ON CONFLICT
  const sql = `INSERT INTO ${table} (${list}) SELECT ${list} FROM ${d.jsonRows(table, columns)} r WHERE true ${onConflict}`;
  for (const part of chunks(rows, BULK_ROWS)) await db.raw(sql, [d.jsonBinding(columns, part)]);
}

/**
 * Insert rows, replacing the stored row of the same key (the rows' keys are distinct).
 * `update`: the columns a stored row takes (default: all but the key) — naming only those that
 * changed spares SQLite the rewrite of every index over the others.
 */
export async function upsertRows(
  db: Knex | Knex.Transaction,
  d: Dialect,
  table: string,
  key: readonly string[],
  rows: readonly WriteRow[],
  update?: readonly string[],
): Promise<void> {
  if (rows.length === 0) return;
  const set = (update ?? columnsOf(rows).filter((c) => !key.includes(c))).map((c) => `"${c}" = excluded."${c}"`);
  const target = key.map((c) => `"${c}"`).join(', ');
  await insertRows(db, d, table, rows, set.length === 0 ? `ON CONFLICT (${target}) DO NOTHING` : `ON CONFLICT (${target}) DO UPDATE SET ${set.join(', ')}`);
}

/** A current table kept equal to the latest row per key of a history table. */
export interface LatestSpec {
  readonly history: string;
  readonly current: string;
  /** key columns (same names in both tables) */
  readonly key: readonly string[];
  /** current column → history expression */
  readonly columns: readonly (readonly [string, string])[];
  /** the history order whose first row per key is the latest */
  readonly latestFirst: string;
  /** keep the latest row only when this holds (else the key has no current row) */
  readonly keep?: Cond;
}

/** Recompute the current rows of `keys` from history. */
export async function refreshLatest(trx: Knex.Transaction, d: Dialect, spec: LatestSpec, keys: readonly (readonly Binding[])[]): Promise<void> {
  const targets = spec.columns.map(([c]) => `"${c}"`).join(', ');
  const exprs = spec.columns.map(([c, e]) => `${e} AS "${c}"`).join(', ');
  const partition = spec.key.map((c) => `"${c}"`).join(', ');
  for (const part of chunks(keys, KEY_CHUNK)) {
    const cond = keyCondition(d, spec.key, part);
    await trx.raw(`DELETE FROM ${spec.current} WHERE ${cond.sql}`, [...cond.bindings]);
    const keep = spec.keep === undefined ? '' : ` AND ${spec.keep.sql}`;
    await trx.raw(
      `INSERT INTO ${spec.current} (${targets}) ` +
        `SELECT ${targets} FROM (SELECT ${exprs}, ROW_NUMBER() OVER (PARTITION BY ${partition} ORDER BY ${spec.latestFirst}) AS rn ` +
        `FROM ${spec.history} WHERE ${cond.sql}) latest WHERE rn = 1${keep}`,
      [...cond.bindings, ...(spec.keep?.bindings ?? [])],
    );
  }
}
