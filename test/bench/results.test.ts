// bench:db's figures read back from RESULTS (bench/guard/): the cold-pages table as the bench
// prints it, the load lines, the json block, and the real bench/RESULTS.md.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { coldTable, readColdTable, readLoads } from '../../bench/guard/coldTable.ts';
import { jsonBlock } from '../../bench/guard/figures.ts';
import type { StoreFigures } from '../../bench/guard/figures.ts';
import { entryScale, recordedFigures, resultsEntries } from '../../bench/guard/results.ts';

const rows = [
  { store: 'sqlite', name: 'GET /blocks?type=block', p50: 1.2, p99: 2.914, raw: 1.08, statements: 2, p99Busy: 11.52 },
  { store: 'sqlite', name: 'GET /addresses/{hot}/token-balances', p50: 7.87, p99: 9.1, raw: 6.5, statements: 2, p99Busy: 160 },
  { store: 'postgres', name: 'GET /blocks?type=block', p50: 0.95, p99: 2.5, raw: 0.8, statements: 1, p99Busy: 14 },
];
const loadLines = [
  'sqlite: loaded 2000 blocks, 20000 transactions, 20000 token transfers, 81234 records in 9.6 s: 2080 tx/s, 8462 records/s overall; generation 0.4 s (…), writeBlocks 9.2 s (…)',
  'sqlite: settle (deferred indexes rebuilt, ANALYZE) 1.6 s; bulk on: 2080 tx/s without settle, 1786 tx/s with settle',
  'postgres: loaded 2000 blocks, 20000 transactions, 20000 token transfers, 81234 records in 9.2 s: 2166 tx/s, 8830 records/s overall',
];

t.test('the cold-pages table the bench prints reads back', async (t) => {
  const lines = coldTable(rows, 16);
  t.equal(lines[0], '| store | case | API p50 / p99 1 caller | raw p50 (statements) | API ÷ raw | p99 16 callers | targets met |');
  t.equal(lines[2], '| sqlite | GET /blocks?type=block | 1.20 / 2.91 | 1.08 (2) | 1.11 | 11.52 | NO (p50) |');
  t.equal(lines[4], '| postgres | GET /blocks?type=block | 0.95 / 2.50 | 0.80 (1) | 1.19 | 14.00 | yes |');
  const read = readColdTable(['some prose', '', ...lines, '', 'more prose'].join('\n'));
  t.same([...read.keys()], ['sqlite', 'postgres']);
  t.same(read.get('sqlite')?.get('GET /blocks?type=block'), { p50: 1.2, p99: 2.91, raw: 1.08, p99Busy: 11.52 });
  t.same(read.get('sqlite')?.get('GET /addresses/{hot}/token-balances'), { p50: 7.87, p99: 9.1, raw: 6.5, p99Busy: 160 });
  t.same(read.get('postgres')?.get('GET /blocks?type=block'), { p50: 0.95, p99: 2.5, raw: 0.8, p99Busy: 14 });
  t.equal(readColdTable('| store | endpoint | p50 page 1 |\n|---|---|---|\n| sqlite | GET /blocks | 1.00 |').size, 0, 'another of the bench’s tables is not this one');
});

t.test('the load lines: the settle line when there is one, else the loaded line', async (t) => {
  const loads = readLoads(loadLines.join('\n'));
  t.same(loads.get('sqlite'), { txPerS: 2080, txPerSWithSettle: 1786 });
  t.same(loads.get('postgres'), { txPerS: 2166, txPerSWithSettle: null });
});

const entry = (n: number, heading: string, body: string): string => `## ${n}. 2026-11-30 · abc1234 · ${heading}\n\n${body}\n\n`;

t.test('an entry with the tables pasted in: its scale, stores and figures', async (t) => {
  const md = `# Benchmark results\n\nintro\n\n${entry(40, '`bench:db` at 1M', ['`BENCH_SCALE=1 BENCH_STORES=sqlite,postgres npm run bench:db`', '', '```', ...loadLines, '```', '', ...coldTable(rows, 16)].join('\n'))}`;
  const figures = recordedFigures(md);
  t.equal(figures.length, 2);
  const sqlite = figures.find((f) => f.store === 'sqlite');
  t.match(sqlite, { entry: 40, scale: 1, contractRecords: true, bulk: true, callers: 16, load: { txPerS: 2080, txPerSWithSettle: 1786 } });
  t.same(Object.keys(sqlite?.lists ?? {}), ['GET /blocks?type=block', 'GET /addresses/{hot}/token-balances']);
  t.match(figures.find((f) => f.store === 'postgres'), { scale: 1, load: { txPerS: 2166 }, lists: { 'GET /blocks?type=block': { p50: 0.95 } } });
  const old = recordedFigures(entry(41, '`bench:db` the old data set', ['BENCH_SCALE=0.1 BENCH_CONTRACT_RECORDS=0 BENCH_BULK=0', ...coldTable(rows.slice(0, 1), 8)].join('\n')));
  t.match(old, [{ entry: 41, scale: 0.1, contractRecords: false, bulk: false, callers: 8 }]);
});

t.test('the scale an entry names', async (t) => {
  const [a, b, c] = resultsEntries(entry(1, '`bench:db` at 1M', 'text') + entry(2, 'x', 'run with `BENCH_SCALE=0.1`') + entry(3, '`bench`', 'no scale'));
  t.equal(a && entryScale(a), 1);
  t.equal(b && entryScale(b), 0.1);
  t.equal(c && entryScale(c), null);
});

t.test('the json block round-trips, and wins over the tables of its entry', async (t) => {
  const figures: StoreFigures[] = [
    { store: 'sqlite', scale: 10, contractRecords: true, bulk: true, callers: 16, load: { txPerS: 5012.4, txPerSWithSettle: null }, lists: { 'GET /blocks?type=block': { p50: 0.912345, p99: 2, raw: 0.8, p99Busy: null } } },
    { store: 'postgres', scale: 10, contractRecords: true, bulk: true, callers: 16, load: null, lists: {} },
  ];
  const block = jsonBlock(figures);
  t.match(block, /^```json\n\[\n {2}\{"bench":"db","store":"sqlite",.*"lists": \{\n {4}"GET \/blocks\?type=block": \{"p50":0\.912,/);
  t.match(block, /"callers":16,"load":null, "lists": \{\}\}\n\]\n```$/);
  const read = recordedFigures(entry(50, '`bench:db` at 10M', `${coldTable(rows, 16).join('\n')}\n\n${block}\n\n\`\`\`json\n{"something": "else"}\n\`\`\``));
  t.same(read, [
    { ...figures[0], entry: 50, lists: { 'GET /blocks?type=block': { p50: 0.912, p99: 2, raw: 0.8, p99Busy: null } } },
    { ...figures[1], entry: 50 },
  ]);
});

t.test('the real bench/RESULTS.md', async (t) => {
  const md = readFileSync(new URL('../../bench/RESULTS.md', import.meta.url), 'utf8');
  const entries = resultsEntries(md);
  t.ok(entries.length >= 34, `${entries.length} entries`);
  t.same(entries.map((e) => e.number), entries.map((_, i) => i + 1), 'numbered 1, 2, 3… in order');
  const scaleOf = (n: number): number | null | undefined => {
    const e = entries.find((x) => x.number === n);
    return e === undefined ? undefined : entryScale(e);
  };
  t.equal(scaleOf(5), 1, 'entry 5 is at 1M (its heading)');
  t.equal(scaleOf(29), 0.02, 'entry 29 ran BENCH_SCALE=0.02');
  const figures = recordedFigures(md);
  // entries 1–34 describe bench:db's figures in prose; later ones carry the table or the json block
  t.notOk(figures.some((f) => f.entry <= 34), 'no figures read from the prose of entries 1–34');
  for (const f of figures) {
    t.ok(['sqlite', 'postgres'].includes(f.store) && f.scale > 0, `entry ${f.entry}: ${f.store} at ${f.scale}M`);
    t.ok(Object.values(f.lists).every((l) => Number.isFinite(l.p50) && l.p50 > 0), `entry ${f.entry} ${f.store}: every p50 a positive number`);
  }
});
