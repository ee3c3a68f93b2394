/**
 * The guard at the end of bench:db (issue 41, item 5): each figure of this run against the last
 * RESULTS entry that recorded it for the same store, scale and data set, and every figure more
 * than 15 % worse, named. Times are worse when higher, rates when lower.
 */
import { scaleName } from './figures.ts';
import type { RecordedFigures, StoreFigures } from './figures.ts';

export const WORSE_BY = 0.15;

/** one figure of this run beside its baseline */
export interface Comparison {
  readonly store: string;
  readonly scale: number;
  /** the list (`GET /blocks?type=block`) or `load` */
  readonly subject: string;
  /** `cold p50`, `p99 16 callers`, `tx/s`, `tx/s with settle` */
  readonly figure: string;
  readonly unit: 'ms' | 'tx/s';
  readonly before: number;
  readonly now: number;
  /** the RESULTS entry of `before` */
  readonly entry: number;
  /** how much worse, as a fraction (−0.1: 10 % better) */
  readonly worse: number;
}

interface Figure {
  readonly subject: string;
  readonly figure: string;
  readonly unit: 'ms' | 'tx/s';
  readonly value: number | null;
}

function figuresOf(f: StoreFigures): Figure[] {
  const out: Figure[] = [];
  if (f.load !== null) {
    out.push({ subject: 'load', figure: 'tx/s', unit: 'tx/s', value: f.load.txPerS });
    out.push({ subject: 'load', figure: 'tx/s with settle', unit: 'tx/s', value: f.load.txPerSWithSettle });
  }
  for (const [name, l] of Object.entries(f.lists)) {
    out.push({ subject: name, figure: 'cold p50', unit: 'ms', value: l.p50 });
    out.push({ subject: name, figure: `p99 ${f.callers} callers`, unit: 'ms', value: l.p99Busy });
  }
  return out;
}

/** the same measurement: store, scale, data set, load mode and callers */
const comparable = (a: StoreFigures, b: StoreFigures): boolean =>
  a.store === b.store && a.scale === b.scale && a.contractRecords === b.contractRecords && a.bulk === b.bulk && a.callers === b.callers;

/**
 * Each figure of `now` beside the latest recorded value of the same figure (`recorded` oldest
 * first): a run measuring only some lists (BENCH_CASES) or only the load compares what it has.
 */
export function compare(now: StoreFigures, recorded: readonly RecordedFigures[]): Comparison[] {
  const latest = new Map<string, { value: number; entry: number }>();
  for (const r of recorded) {
    if (!comparable(now, r)) continue;
    for (const x of figuresOf(r)) if (x.value !== null && x.value > 0) latest.set(`${x.subject}\n${x.figure}`, { value: x.value, entry: r.entry });
  }
  const out: Comparison[] = [];
  for (const x of figuresOf(now)) {
    const before = latest.get(`${x.subject}\n${x.figure}`);
    if (before === undefined || x.value === null) continue;
    const change = (x.value - before.value) / before.value;
    out.push({ store: now.store, scale: now.scale, subject: x.subject, figure: x.figure, unit: x.unit, before: before.value, now: x.value, entry: before.entry, worse: x.unit === 'tx/s' ? -change : change });
  }
  return out;
}

const value = (x: number, unit: Comparison['unit']): string => (unit === 'tx/s' ? String(Math.round(x)) : x.toFixed(2));
const percent = (c: Comparison): string => {
  const change = ((c.now - c.before) / c.before) * 100;
  return `${change >= 0 ? '+' : '−'}${Math.abs(change).toFixed(1)} %`;
};

/** one line for a figure: `sqlite 1M GET /blocks?type=block cold p50: 1.20 → 1.52 ms (+26.7 %, RESULTS 35)` */
export function describe(c: Comparison): string {
  return `${c.store} ${scaleName(c.scale)} ${c.subject} ${c.figure}: ${value(c.before, c.unit)} → ${value(c.now, c.unit)} ${c.unit} (${percent(c)}, RESULTS ${c.entry})`;
}

/** the guard's report: what was compared, then every figure worse by more than 15 %, or that none is */
export function guardReport(comparisons: readonly Comparison[], stores: readonly StoreFigures[]): string[] {
  const out: string[] = [];
  for (const s of stores) {
    const mine = comparisons.filter((c) => c.store === s.store && c.scale === s.scale);
    const entries = [...new Set(mine.map((c) => c.entry))].sort((a, b) => a - b);
    out.push(
      mine.length === 0
        ? `${s.store} ${scaleName(s.scale)}: no RESULTS entry of this store, scale and data set to compare with`
        : `${s.store} ${scaleName(s.scale)}: ${mine.length} figures compared with RESULTS ${entries.join(', ')}`,
    );
  }
  const worse = comparisons.filter((c) => c.worse > WORSE_BY);
  if (comparisons.length > 0 && worse.length === 0) out.push(`no figure worse by more than ${WORSE_BY * 100} %`);
  if (worse.length > 0) {
    out.push(`${worse.length} figure${worse.length === 1 ? '' : 's'} worse by more than ${WORSE_BY * 100} %:`);
    for (const c of [...worse].sort((a, b) => b.worse - a.worse)) out.push(`  WORSE ${describe(c)}`);
  }
  return out;
}
