// The guard at the end of bench:db (bench/guard/compare.ts): each figure against the latest
// recorded one of the same store, scale and data set; times worse when higher, rates when lower.
import t from 'tap';
import { compare, describe, guardReport } from '../../bench/guard/compare.ts';
import type { ListFigures, RecordedFigures, StoreFigures } from '../../bench/guard/figures.ts';

const list = (p50: number, p99Busy: number | null = null): ListFigures => ({ p50, p99: null, raw: null, p99Busy });
const figures = (over: Partial<StoreFigures> = {}): StoreFigures => ({
  store: 'sqlite', scale: 1, contractRecords: true, bulk: true, callers: 16, load: { txPerS: 2000, txPerSWithSettle: 1800 },
  lists: { 'GET /blocks?type=block': list(1.0, 20), 'GET /stats': list(0.5, 10) },
  ...over,
});
const at = (entry: number, over: Partial<StoreFigures> = {}): RecordedFigures => ({ ...figures(over), entry });

t.test('a time up by more than 15 %, a rate down by more than 15 %: named', async (t) => {
  const now = figures({ load: { txPerS: 1600, txPerSWithSettle: 2100 }, lists: { 'GET /blocks?type=block': list(1.2, 22), 'GET /stats': list(0.4, 12) } });
  const all = compare(now, [at(35)]);
  t.equal(all.length, 6, 'two load figures, two per list');
  const worse = all.filter((c) => c.worse > 0.15).map(describe).sort();
  t.same(worse, [
    'sqlite 1M GET /blocks?type=block cold p50: 1.00 → 1.20 ms (+20.0 %, RESULTS 35)',
    'sqlite 1M GET /stats p99 16 callers: 10.00 → 12.00 ms (+20.0 %, RESULTS 35)',
    'sqlite 1M load tx/s: 2000 → 1600 tx/s (−20.0 %, RESULTS 35)',
  ]);
  const report = guardReport(all, [now]);
  t.equal(report[0], 'sqlite 1M: 6 figures compared with RESULTS 35');
  t.equal(report[1], '3 figures worse by more than 15 %:');
  t.match(report[2], /^ {2}WORSE sqlite 1M /);
  t.equal(report.length, 5);
  t.notOk(report.some((l) => /GET \/stats cold p50|with settle|p99 16 callers: 20/.test(l)), 'better or within 15 %: not named');
});

t.test('within 15 %, or better: no figure named', async (t) => {
  const now = figures({ load: { txPerS: 1750, txPerSWithSettle: 1600 }, lists: { 'GET /blocks?type=block': list(1.149, 22.9), 'GET /stats': list(0.1, 1) } });
  const all = compare(now, [at(35)]);
  t.same(all.filter((c) => c.worse > 0.15), []);
  t.same(guardReport(all, [now]), ['sqlite 1M: 6 figures compared with RESULTS 35', 'no figure worse by more than 15 %']);
});

t.test('the baseline: the latest entry of the same store, scale, data set, load mode and callers, figure by figure', async (t) => {
  const now = figures();
  const recorded = [
    at(35, { lists: { 'GET /blocks?type=block': list(0.5, 5), 'GET /stats': list(0.25, 5) } }),
    at(36, { store: 'postgres', lists: { 'GET /blocks?type=block': list(0.1, 1) } }),
    at(37, { scale: 0.1, lists: { 'GET /blocks?type=block': list(0.1, 1) } }),
    at(38, { contractRecords: false, lists: { 'GET /blocks?type=block': list(0.1, 1) } }),
    at(39, { bulk: false, load: { txPerS: 9000, txPerSWithSettle: 9000 } }),
    at(40, { callers: 8, lists: { 'GET /blocks?type=block': list(1, 1) } }),
    // a later run of some lists only (BENCH_CASES), without a load (a kept data set)
    at(41, { load: null, lists: { 'GET /blocks?type=block': list(1, 20) } }),
  ];
  const by = new Map(compare(now, recorded).map((c) => [`${c.subject} ${c.figure}`, c]));
  t.equal(by.get('GET /blocks?type=block cold p50')?.entry, 41);
  t.equal(by.get('GET /stats cold p50')?.entry, 35, 'a list the latest run left out: the entry before');
  t.equal(by.get('GET /stats cold p50')?.before, 0.25);
  t.equal(by.get('load tx/s')?.entry, 35, 'the load from the latest entry that loaded, in the same mode');
  t.same(compare(figures({ store: 'postgres', scale: 10 }), recorded), [], 'nothing recorded at 10M on postgres');
  t.same(guardReport([], [figures({ scale: 10 })]), ['sqlite 10M: no RESULTS entry of this store, scale and data set to compare with']);
});
