/**
 * The bulk statements a migration's backfill writes with (a batch's rows or keys as one JSON
 * binding), copied from adapters/sql/sql.ts at 6a6eefb. Frozen (see ./dialect.ts): add, never change.
 */
import type { Knex } from 'knex';
import type { Binding, Cond, MigrationDialect } from './dialect.ts';
import type { WriteRow } from './rows.ts';

/** Keys per statement for OR-chained multi-column key conditions. */
export const KEY_CHUNK = 200;
/** Rows per bulk statement (the size of one binding). */
export const BULK_ROWS = 5000;

export function chunks<T>(xs: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}

/** Key columns compared as numbers (numeric(78,0) on Postgres); every other key column is text. */
const NUMERIC_KEY_COLUMNS: ReadonlySet<string> = new Set(['token_id']);

/** Rows whose key columns equal one of `keys`: `"a" IN (?, …)` for one column; for several, the dialect's form. */
export function keyCondition(d: MigrationDialect, columns: readonly string[], keys: readonly (readonly Binding[])[]): Cond {
  const col = (c: string) => `"${c}"`;
  if (keys.length === 0) return { sql: '1 = 0', bindings: [] };
  if (columns.length === 1) {
    return { sql: `${col(columns[0])} IN (${keys.map(() => '?').join(', ')})`, bindings: keys.map((k) => k[0]) };
  }
  return d.keysIn(columns.map((c) => ({ sql: col(c), numeric: NUMERIC_KEY_COLUMNS.has(c) })), keys);
}

/** `keys` (each in `columns` order) as a table of `columns` of `table` (for a join; alias it), read from one binding. */
export function keyRows(d: MigrationDialect, table: string, columns: readonly string[], keys: readonly (readonly Binding[])[]): Cond {
  return { sql: d.jsonRows(table, columns), bindings: [d.jsonKeysBinding(columns, keys)] };
}

/** Every column any of `rows` has, in first-seen order. */
function columnsOf(rows: readonly WriteRow[]): string[] {
  const seen = new Set<string>();
  for (const r of rows) for (const c in r) seen.add(c);
  return [...seen];
}

/** Insert rows: one statement per BULK_ROWS rows, bound as one JSON text. `onConflict`: an ON CONFLICT clause. */
export async function insertRows(db: Knex | Knex.Transaction, d: MigrationDialect, table: string, rows: readonly WriteRow[], onConflict = ''): Promise<void> {
  if (rows.length === 0) return;
  const columns = columnsOf(rows);
  const list = columns.map((c) => `"${c}"`).join(', ');
  // WHERE true: SQLite's parser needs it between a SELECT and ON CONFLICT
  const sql = `INSERT INTO ${table} (${list}) SELECT ${list} FROM ${d.jsonRows(table, columns)} r WHERE true ${onConflict}`;
  for (const part of chunks(rows, BULK_ROWS)) await db.raw(sql, [d.jsonBinding(columns, part)]);
}

/** Insert rows, replacing the stored row of the same key (the rows' keys are distinct). */
export async function upsertRows(db: Knex | Knex.Transaction, d: MigrationDialect, table: string, key: readonly string[], rows: readonly WriteRow[]): Promise<void> {
  if (rows.length === 0) return;
  const set = columnsOf(rows)
    .filter((c) => !key.includes(c))
    .map((c) => `"${c}" = excluded."${c}"`);
  const target = key.map((c) => `"${c}"`).join(', ');
  await insertRows(db, d, table, rows, set.length === 0 ? `ON CONFLICT (${target}) DO NOTHING` : `ON CONFLICT (${target}) DO UPDATE SET ${set.join(', ')}`);
}
