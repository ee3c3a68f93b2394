// RESULTS' plot (bench/guard/plot.ts): well-formed SVG, one panel per store, one series per
// scale, every list named.
import { readFileSync } from 'node:fs';
import t from 'tap';
import type { ListFigures, RecordedFigures } from '../../bench/guard/figures.ts';
import { coldPagesSvg, plotSeries } from '../../bench/guard/plot.ts';
import { recordedFigures } from '../../bench/guard/results.ts';

/** the tags balance, every attribute is quoted, no bare `&` or `<` in text: an XML parser's first checks */
function wellFormed(xml: string): string[] {
  const problems: string[] = [];
  const open: string[] = [];
  for (const m of xml.matchAll(/<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|<|&(?!amp;|lt;|gt;|quot;|#\d+;)/g)) {
    if (m[0] === '<' || m[0] === '&') {
      problems.push(`a bare ${m[0]} at ${m.index}`);
      continue;
    }
    const [, close, name = '', , self] = m;
    if (self === '/') continue;
    if (close === '/') {
      const top = open.pop();
      if (top !== name) problems.push(`</${name}> closes <${top}>`);
    } else open.push(name);
  }
  if (open.length > 0) problems.push(`unclosed: ${open.join(', ')}`);
  return problems;
}

const lists = (names: readonly string[], base: number): Record<string, ListFigures> =>
  Object.fromEntries(names.map((n, i) => [n, { p50: base + i / 10, p99: null, raw: null, p99Busy: null }]));
const rec = (entry: number, store: string, scale: number, names: readonly string[], base: number, contractRecords = true): RecordedFigures => ({
  entry, store, scale, contractRecords, bulk: true, callers: 16, load: null, lists: lists(names, base),
});
const NAMES = ['GET /blocks?type=block', 'GET /addresses/{hot}/token-balances', 'GET /advanced-filters?methods=0xa9059cbb', 'GET /tokens/?q=Token+1'];

t.test('the series: each store and scale of 0.1M, 1M, 10M, each list from the latest entry that has it', async (t) => {
  const recorded = [
    rec(35, 'postgres', 1, NAMES, 2),
    rec(36, 'sqlite', 1, NAMES, 1),
    rec(37, 'sqlite', 1, NAMES.slice(0, 1), 0.5),
    rec(38, 'sqlite', 0.1, NAMES, 0.3),
    rec(39, 'sqlite', 10, NAMES, 1.3),
    rec(40, 'sqlite', 0.02, NAMES, 0.1), // a scale the plot leaves out
    rec(41, 'sqlite', 10, NAMES, 9, false), // the old data set: left out
  ];
  const series = plotSeries(recorded);
  t.same(series.map((s) => `${s.store} ${s.scale}`), ['sqlite 0.1', 'sqlite 1', 'sqlite 10', 'postgres 1']);
  const sqlite1 = series[1];
  t.same(sqlite1?.entries, [36, 37]);
  t.equal(sqlite1?.p50.get('GET /blocks?type=block'), 0.5);
  t.equal(sqlite1?.p50.get('GET /tokens/?q=Token+1'), 1.3);
  t.equal(series[2]?.p50.get('GET /blocks?type=block'), 1.3);
});

t.test('the SVG: well-formed, one series per scale in each panel, every list named', async (t) => {
  const names = [...NAMES, 'GET /addresses/{hot}/token-transfers?type=ERC-20&filter=from'];
  const series = plotSeries([rec(35, 'sqlite', 0.1, names, 0.4), rec(36, 'sqlite', 1, names, 1), rec(37, 'sqlite', 10, names.slice(1), 1.2), rec(38, 'postgres', 1, names, 1.5)]);
  const svg = coldPagesSvg(series);
  t.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="\d+" viewBox="0 0 \d+ \d+"/);
  t.same(wellFormed(svg), []);
  t.same(wellFormed('<svg><g></svg>'), ['</svg> closes <g>', 'unclosed: svg'], 'the checker finds a broken document');
  t.same(wellFormed('<svg><text>a & b</text></svg>'), ['a bare & at 13']);
  t.same([...svg.matchAll(/<g class="panel" data-store="(\w+)"/g)].map((m) => m[1]), ['sqlite', 'postgres']);
  t.same([...svg.matchAll(/<g class="series" data-store="(\w+)" data-scale="([\d.]+)"/g)].map((m) => `${m[1]} ${m[2]}`), ['sqlite 0.1', 'sqlite 1', 'sqlite 10', 'postgres 1']);
  for (const store of ['sqlite', 'postgres']) {
    const panel = svg.slice(svg.indexOf(`<g class="panel" data-store="${store}"`));
    const listed = [...panel.matchAll(/<text class="list"[^>]*><title>([^<]*)<\/title>/g)].map((m) => m[1]?.replace(/&amp;/g, '&'));
    t.same(listed.slice(0, names.length), names, `${store}: every list named`);
  }
  const long = coldPagesSvg(plotSeries([rec(35, 'sqlite', 1, [`GET /advanced-filters?from_address_hashes_to_include=0x${'0'.repeat(39)}1&to_address_hashes_to_include=0x${'0'.repeat(39)}1`], 1)]));
  t.match(long, '>GET /advanced-filters?from_address_hashes_to_include=0x…0001&amp;to…</text>', 'a long name shortened, whole in its title');
  t.match(svg, '0.1M (RESULTS 35)');
  t.match(svg, '1M (RESULTS 36, 38)');
  t.match(svg, '10M (RESULTS 37)');
  t.match(svg, '<title>sqlite 10M GET /addresses/{hot}/token-balances: 1.20 ms</title>');
  t.notMatch(svg, '<title>sqlite 10M GET /blocks?type=block', 'a list a scale did not measure: no bar');
  t.equal(coldPagesSvg(series), svg, 'the same figures, the same bytes');
});

t.test('nothing recorded yet: a well-formed document that says so', async (t) => {
  const svg = coldPagesSvg(plotSeries([]));
  t.same(wellFormed(svg), []);
  t.match(svg, 'no bench:db figures recorded at 0.1M, 1M, 10M yet');
  t.notMatch(svg, 'class="series"');
});

t.test('bench/cold-pages.svg is RESULTS’ figures drawn (after adding an entry by hand: npx tsx bench/guard/run.ts)', async (t) => {
  const results = readFileSync(new URL('../../bench/RESULTS.md', import.meta.url), 'utf8');
  const svg = readFileSync(new URL('../../bench/cold-pages.svg', import.meta.url), 'utf8');
  t.equal(svg, coldPagesSvg(plotSeries(recordedFigures(results))));
  t.match(results, '](cold-pages.svg)', 'RESULTS links to it');
});
