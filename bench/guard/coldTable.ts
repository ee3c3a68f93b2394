/**
 * bench:db's "cold API pages" table and load lines: printed by the bench (`coldTable`), read back
 * from RESULTS entries that hold them (`readColdTable`, `readLoads`), so an entry written before
 * the figures' `json` block (bench/guard/figures.ts) still serves as a baseline.
 *
 *   | store | case | API p50 / p99 1 caller | raw p50 (statements) | API ÷ raw | p99 16 callers | targets met |
 *   |---|---|---|---|---|---|---|
 *   | sqlite | GET /blocks?type=block | 1.20 / 2.91 | 1.08 (2) | 1.11 | 11.52 | NO (p50) |
 */
import type { ListFigures } from './figures.ts';

/** one row of the table: an API list's first page on one store */
export interface ColdRow {
  readonly store: string;
  readonly name: string;
  /** one caller */
  readonly p50: number;
  readonly p99: number;
  /** its statements run raw, one caller, and how many there are */
  readonly raw: number;
  readonly statements: number;
  /** `callers` callers */
  readonly p99Busy: number;
}

const f = (x: number): string => x.toFixed(2);

/** the table's lines; targets (issue 13): p50 ≤ 1 ms, p99 ≤ 3 ms at one caller, p99 ≤ 15 ms at `callers` */
export function coldTable(rows: readonly ColdRow[], callers: number): string[] {
  const out = [`| store | case | API p50 / p99 1 caller | raw p50 (statements) | API ÷ raw | p99 ${callers} callers | targets met |`, '|---|---|---|---|---|---|---|'];
  for (const r of rows) {
    const missed = [r.p50 > 1 ? 'p50' : '', r.p99 > 3 ? 'p99' : '', r.p99Busy > 15 ? `p99 ${callers}` : ''].filter((x) => x !== '');
    out.push(`| ${r.store} | ${r.name} | ${f(r.p50)} / ${f(r.p99)} | ${f(r.raw)} (${r.statements}) | ${f(r.p50 / r.raw)} | ${f(r.p99Busy)} | ${missed.length === 0 ? 'yes' : `NO (${missed.join(', ')})`} |`);
  }
  return out;
}

const cells = (line: string): string[] => line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
const number = (text: string | undefined): number | null => {
  const m = /^(\d+(?:\.\d+)?)/.exec(text ?? '');
  return m === null ? null : Number(m[1]);
};

/**
 * Every cold-pages table in `text` (lines starting with `|`, fenced or not): store → list → figures.
 * Columns are found by their headings, so a table with a column more or less still reads.
 */
export function readColdTable(text: string): Map<string, Map<string, ListFigures>> {
  const out = new Map<string, Map<string, ListFigures>>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const head = cells(lines[i] ?? '');
    const col = (re: RegExp): number => head.findIndex((h) => re.test(h));
    const [store, name, api, raw, busy] = [col(/^store$/), col(/^case$/), col(/^API p50 \/ p99 1 caller$/), col(/^raw p50/), col(/^p99 \d+ callers$/)];
    if (!(lines[i] ?? '').trimStart().startsWith('|') || store < 0 || name < 0 || api < 0) continue;
    for (i += 2; i < lines.length && (lines[i] ?? '').trimStart().startsWith('|'); i++) {
      const row = cells(lines[i] ?? '');
      const [p50Text, p99Text] = (row[api] ?? '').split('/');
      const p50 = number(p50Text?.trim());
      const s = row[store];
      const n = row[name];
      if (p50 === null || s === undefined || n === undefined || s === '' || n === '') continue;
      const lists = out.get(s) ?? new Map<string, ListFigures>();
      lists.set(n, { p50, p99: number(p99Text?.trim()), raw: raw < 0 ? null : number(row[raw]), p99Busy: busy < 0 ? null : number(row[busy]) });
      out.set(s, lists);
    }
  }
  return out;
}

/**
 * The load's rates in the bench's own lines, by store: `sqlite: settle (…) 43.3 s; bulk on: 2080
 * tx/s without settle, 1790 tx/s with settle`, else `sqlite: loaded … in 480.1 s: 2080 tx/s, …`.
 */
export function readLoads(text: string): Map<string, { readonly txPerS: number; readonly txPerSWithSettle: number | null }> {
  const out = new Map<string, { readonly txPerS: number; readonly txPerSWithSettle: number | null }>();
  for (const m of text.matchAll(/\b(\w+): loaded \d+ blocks,.*? s: (\d+) tx\/s/g)) {
    if (m[1] !== undefined) out.set(m[1], { txPerS: Number(m[2]), txPerSWithSettle: null });
  }
  for (const m of text.matchAll(/\b(\w+): settle \(.*?bulk o(?:n|ff): (\d+) tx\/s without settle, (\d+) tx\/s with settle/g)) {
    if (m[1] !== undefined) out.set(m[1], { txPerS: Number(m[2]), txPerSWithSettle: Number(m[3]) });
  }
  return out;
}
