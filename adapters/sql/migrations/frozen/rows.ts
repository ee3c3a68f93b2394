/**
 * Reading the rows a migration's backfill selects, copied from adapters/sql/rows.ts at 6a6eefb.
 * Frozen (see ./dialect.ts): add, never change.
 */
import { toBig } from './dialect.ts';

export type Row = Readonly<Record<string, unknown>>;
export type WriteRow = Record<string, string | number | boolean | null>;

function isRow(v: unknown): v is Row {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
export function asRows(v: unknown): Row[] {
  if (!Array.isArray(v)) throw new TypeError('expected rows from the database');
  return v.map((r: unknown) => {
    if (!isRow(r)) throw new TypeError('expected a row object from the database');
    return r;
  });
}
export function str(r: Row, c: string): string {
  const v = r[c];
  if (typeof v !== 'string') throw new TypeError(`column ${c}: expected text, got ${typeof v}`);
  return v;
}
export function strOrNull(r: Row, c: string): string | null {
  return r[c] === null || r[c] === undefined ? null : str(r, c);
}
export function num(r: Row, c: string): number {
  const v = r[c];
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint' || typeof v === 'string') {
    const n = Number(v);
    if (!Number.isSafeInteger(n)) throw new RangeError(`column ${c}: not a safe integer: ${v}`);
    return n;
  }
  throw new TypeError(`column ${c}: expected a number, got ${typeof v}`);
}
export function big(r: Row, c: string): bigint {
  return toBig(r[c]);
}
export function bigOrNull(r: Row, c: string): bigint | null {
  return r[c] === null || r[c] === undefined ? null : toBig(r[c]);
}
export function bool(r: Row, c: string): boolean {
  const v = r[c];
  if (typeof v === 'boolean') return v;
  if (v === 0 || v === 1) return v === 1;
  throw new TypeError(`column ${c}: expected a boolean, got ${String(v)}`);
}
