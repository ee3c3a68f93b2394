/**
 * The plot RESULTS links to (issue 41, item 5): the cold first page of each API list, p50 at one
 * caller, at each scale recorded (0.1M, 1M, 10M), one panel per store, one bar series per scale.
 * Hand-written SVG: no browser, no dependency; the same figures give the same bytes.
 */
import { scaleName } from './figures.ts';
import type { RecordedFigures } from './figures.ts';

/** one store at one scale: each list's latest recorded p50 */
export interface PlotSeries {
  readonly store: string;
  readonly scale: number;
  /** the RESULTS entries the values come from */
  readonly entries: readonly number[];
  readonly p50: ReadonlyMap<string, number>;
}

export const PLOT_SCALES: readonly number[] = [0.1, 1, 10];
const STORES = ['sqlite', 'postgres'];

/** the series to draw: for each store and scale of `scales`, each list's p50 from the latest entry that has it (the current data set only) */
export function plotSeries(recorded: readonly RecordedFigures[], scales: readonly number[] = PLOT_SCALES): PlotSeries[] {
  const out: PlotSeries[] = [];
  const stores = [...new Set(recorded.map((r) => r.store))].sort((a, b) => (STORES.indexOf(a) + 1 || 99) - (STORES.indexOf(b) + 1 || 99) || a.localeCompare(b));
  for (const store of stores) {
    for (const scale of scales) {
      const p50 = new Map<string, { value: number; entry: number }>();
      for (const r of recorded) {
        if (r.store !== store || r.scale !== scale || !r.contractRecords) continue;
        for (const [name, l] of Object.entries(r.lists)) p50.set(name, { value: l.p50, entry: r.entry });
      }
      if (p50.size === 0) continue;
      const entries = [...new Set([...p50.values()].map((v) => v.entry))].sort((a, b) => a - b);
      out.push({ store, scale, entries, p50: new Map([...p50].map(([name, v]) => [name, v.value])) });
    }
  }
  return out;
}

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** a list's label: addresses shortened (`0x…0001`), at most 64 characters; the full name is its title */
const label = (name: string): string => {
  const short = name.replace(/0x[0-9a-f]{36}([0-9a-f]{4})/g, '0x…$1');
  return short.length <= 64 ? short : `${short.slice(0, 63)}…`;
};
const COLORS = ['#9ecae1', '#3182bd', '#08306b', '#fd8d3c', '#31a354'];
/** a round axis end at or above `x`: 1, 2 or 5 × 10^k */
function niceMax(x: number): number {
  const k = 10 ** Math.floor(Math.log10(Math.max(x, 1e-3)));
  return [1, 2, 5, 10].map((m) => m * k).find((m) => m >= x) ?? 10 * k;
}

const BAR = 9;
const WIDTH = 1000;

/** the SVG document; `title` goes above the panels */
export function coldPagesSvg(series: readonly PlotSeries[], title = 'bench:db — cold API pages: first page, one caller, p50 (ms), from bench/RESULTS.md'): string {
  const scales = [...new Set(series.map((s) => s.scale))].sort((a, b) => a - b);
  const color = (scale: number): string => COLORS[scales.indexOf(scale) % COLORS.length] ?? '#000';
  const stores = [...new Set(series.map((s) => s.store))];
  const lists = (store: string): string[] => [...new Set(series.filter((s) => s.store === store).flatMap((s) => [...s.p50.keys()]))];
  const longest = Math.max(10, ...stores.flatMap(lists).map((l) => label(l).length));
  const left = Math.round(longest * 6.2) + 20;
  const right = WIDTH - 70;
  const max = niceMax(1.05 * Math.max(1, ...series.flatMap((s) => [...s.p50.values()])));
  const x = (ms: number): number => left + ((right - left) * ms) / max;
  const body: string[] = [];
  let y = 40;
  // the legend: one swatch per scale
  scales.forEach((scale, i) => {
    const from = [...new Set(series.filter((s) => s.scale === scale).flatMap((s) => s.entries))].sort((a, b) => a - b);
    body.push(`<rect x="${left + i * 190}" y="${y - 9}" width="10" height="10" fill="${color(scale)}"/><text x="${left + i * 190 + 14}" y="${y}">${escape(`${scaleName(scale)} (RESULTS ${from.join(', ')})`)}</text>`);
  });
  y += 16;
  if (series.length === 0) {
    body.push(`<text x="20" y="${y + 14}">no bench:db figures recorded at ${PLOT_SCALES.map(scaleName).join(', ')} yet</text>`);
    y += 30;
  }
  for (const store of stores) {
    const names = lists(store);
    const mine = scales.flatMap((scale) => series.filter((s) => s.store === store && s.scale === scale));
    const row = mine.length * BAR + 8;
    const top = y + 22;
    const bottom = top + names.length * row;
    body.push(`<g class="panel" data-store="${escape(store)}">`, `<text x="20" y="${y + 14}" font-weight="bold">${escape(store)}</text>`);
    for (let t = 0; t <= 5; t++) {
      const ms = (max * t) / 5;
      body.push(`<line x1="${x(ms).toFixed(1)}" y1="${top}" x2="${x(ms).toFixed(1)}" y2="${bottom}" stroke="#ddd"/><text x="${x(ms).toFixed(1)}" y="${bottom + 12}" text-anchor="middle">${Number(ms.toPrecision(3))}${t === 5 ? ' ms' : ''}</text>`);
    }
    body.push(`<line class="target" x1="${x(1).toFixed(1)}" y1="${top - 4}" x2="${x(1).toFixed(1)}" y2="${bottom}" stroke="#d62728" stroke-dasharray="4 3"/><text x="${(x(1) + 3).toFixed(1)}" y="${top - 6}" fill="#d62728">1 ms</text>`);
    names.forEach((name, i) => body.push(`<text class="list" x="${left - 6}" y="${top + i * row + row / 2 + 3}" text-anchor="end"><title>${escape(name)}</title>${escape(label(name))}</text>`));
    mine.forEach((s, k) => {
      body.push(`<g class="series" data-store="${escape(store)}" data-scale="${s.scale}" fill="${color(s.scale)}">`);
      names.forEach((name, i) => {
        const ms = s.p50.get(name);
        if (ms === undefined) return;
        const by = top + i * row + 4 + k * BAR;
        body.push(
          `<rect x="${left}" y="${by}" width="${Math.max(0.5, x(ms) - left).toFixed(1)}" height="${BAR - 1}"><title>${escape(`${store} ${scaleName(s.scale)} ${name}: ${ms.toFixed(2)} ms`)}</title></rect>` +
            `<text x="${(x(ms) + 3).toFixed(1)}" y="${by + BAR - 2}" fill="#333" font-size="8">${ms.toFixed(2)}</text>`,
        );
      });
      body.push('</g>');
    });
    body.push('</g>');
    y = bottom + 30;
  }
  const height = y + 10;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="${WIDTH}" height="${height}" fill="#fff"/>`,
    `<text x="20" y="20" font-size="14" font-weight="bold">${escape(title)}</text>`,
    ...body,
    '</svg>',
    '',
  ].join('\n');
}
