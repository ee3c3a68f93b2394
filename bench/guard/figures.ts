/**
 * bench:db's figures in a form the next run can read back (issue 41, item 5): one store at one
 * scale — the load's rate and, for each API list, the first page's p50 and p99 at one caller (the
 * "cold API pages" table), its raw statements' p50 and the p99 at BENCH_CONCURRENCY callers.
 *
 * A RESULTS entry records them as a fenced `json` block (`jsonBlock`), one object per store, next
 * to the tables a reader looks at; bench/guard/results.ts reads those blocks back, and the tables
 * of entries written before them.
 */

/** one API list's first page */
export interface ListFigures {
  /** ms, one caller (the cold page) */
  readonly p50: number;
  /** ms, one caller */
  readonly p99: number | null;
  /** ms, the page's statements run raw, one caller */
  readonly raw: number | null;
  /** ms, BENCH_CONCURRENCY callers */
  readonly p99Busy: number | null;
}

/** one store's figures from one run of bench:db */
export interface StoreFigures {
  readonly store: string;
  /** BENCH_SCALE: millions of transactions */
  readonly scale: number;
  /** the data set's tokens have address records (BENCH_CONTRACT_RECORDS, on since RESULTS 30) */
  readonly contractRecords: boolean;
  /** the load ran in bulk mode (BENCH_BULK) */
  readonly bulk: boolean;
  /** the callers of the busy measurement (BENCH_CONCURRENCY) */
  readonly callers: number;
  /** transactions a second of the load, without settle and with it (null: not loaded in this run) */
  readonly load: { readonly txPerS: number; readonly txPerSWithSettle: number | null } | null;
  /** API lists by the bench's name for them (`GET /blocks?type=block`) */
  readonly lists: Readonly<Record<string, ListFigures>>;
}

/** figures read back from a RESULTS entry */
export interface RecordedFigures extends StoreFigures {
  /** the entry's number (`## 35. …`) */
  readonly entry: number;
}

/** `0.1M`, `1M`, `10M`: a scale as the issues and RESULTS name it */
export const scaleName = (scale: number): string => `${scale}M`;

/** the fenced block a RESULTS entry carries for the guard of the next run: one store a paragraph, one list a line */
export function jsonBlock(figures: readonly StoreFigures[]): string {
  const round = (x: number | null): number | null => (x === null ? null : Math.round(x * 1000) / 1000);
  const stores = figures.map(({ lists, ...f }) => {
    const head = JSON.stringify({ bench: 'db', ...f });
    const rows = Object.entries(lists).map(([name, l]) => `    ${JSON.stringify(name)}: ${JSON.stringify({ p50: round(l.p50), p99: round(l.p99), raw: round(l.raw), p99Busy: round(l.p99Busy) })}`);
    return `  ${head.slice(0, -1)}, "lists": {${rows.length === 0 ? '}}' : `\n${rows.join(',\n')}\n  }}`}`;
  });
  return ['```json', '[', stores.join(',\n'), ']', '```'].join('\n');
}

const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);

/** one object of a `json` block, or null when it is not bench:db's figures */
export function figuresFromJson(value: unknown): StoreFigures | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const scale = num(v.scale);
  if (v.bench !== 'db' || typeof v.store !== 'string' || scale === null || typeof v.lists !== 'object' || v.lists === null) return null;
  const lists: Record<string, ListFigures> = {};
  for (const [name, l] of Object.entries(v.lists as Record<string, unknown>)) {
    if (typeof l !== 'object' || l === null) continue;
    const x = l as Record<string, unknown>;
    const p50 = num(x.p50);
    if (p50 !== null) lists[name] = { p50, p99: num(x.p99), raw: num(x.raw), p99Busy: num(x.p99Busy) };
  }
  const load = typeof v.load === 'object' && v.load !== null ? (v.load as Record<string, unknown>) : null;
  const txPerS = load === null ? null : num(load.txPerS);
  return {
    store: v.store,
    scale,
    contractRecords: v.contractRecords !== false,
    bulk: v.bulk !== false,
    callers: num(v.callers) ?? 16,
    load: load === null || txPerS === null ? null : { txPerS, txPerSWithSettle: num(load.txPerSWithSettle) },
    lists,
  };
}
