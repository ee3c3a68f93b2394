/**
 * The end of bench:db (issue 41, item 5): this run's figures against bench/RESULTS.md (the guard),
 * the `json` block a new RESULTS entry carries for the next run, and the plot RESULTS links to,
 * bench/cold-pages.svg, drawn again from RESULTS' figures (`npx tsx bench/guard/run.ts` draws it
 * alone, after an entry is added).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compare, guardReport } from './compare.ts';
import { jsonBlock, scaleName } from './figures.ts';
import type { StoreFigures } from './figures.ts';
import { coldPagesSvg, plotSeries } from './plot.ts';
import { recordedFigures, resultsEntries } from './results.ts';

/** BENCH_RESULTS=<file>: another RESULTS file to compare with and draw beside (to try the guard on a copy) */
export const RESULTS_PATH = process.env.BENCH_RESULTS === undefined || process.env.BENCH_RESULTS === '' ? fileURLToPath(new URL('../RESULTS.md', import.meta.url)) : resolve(process.env.BENCH_RESULTS);
/** the plot, beside RESULTS */
export const PLOT_PATH = join(dirname(RESULTS_PATH), 'cold-pages.svg');

/** the guard's lines for this run's figures (one object per store) */
export function guard(now: readonly StoreFigures[], resultsPath = RESULTS_PATH): string[] {
  const recorded = recordedFigures(readFileSync(resultsPath, 'utf8'));
  return guardReport(now.flatMap((f) => compare(f, recorded)), now);
}

/** the heading and `json` block of a RESULTS entry for this run (the prose is the author's) */
export function entryDraft(now: readonly StoreFigures[], resultsPath = RESULTS_PATH): string[] {
  const last = resultsEntries(readFileSync(resultsPath, 'utf8')).at(-1)?.number ?? 0;
  let commit = '<commit>';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    // not a git checkout: the author fills it in
  }
  const scales = [...new Set(now.map((f) => scaleName(f.scale)))].join(', ');
  return [`## ${last + 1}. ${new Date().toISOString().slice(0, 10)} · ${commit} · \`bench:db\` at ${scales} (${now.map((f) => f.store).join(', ')})`, '', jsonBlock(now)];
}

/** draw bench/cold-pages.svg from RESULTS' figures; false when the file already held these bytes */
export function drawColdPages(resultsPath = RESULTS_PATH, svgPath = PLOT_PATH): boolean {
  const svg = coldPagesSvg(plotSeries(recordedFigures(readFileSync(resultsPath, 'utf8'))));
  if (existsSync(svgPath) && readFileSync(svgPath, 'utf8') === svg) return false;
  writeFileSync(svgPath, svg);
  return true;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(`${PLOT_PATH}: ${drawColdPages() ? 'drawn' : 'unchanged'}`);
}
