/**
 * bench:db's figures read back from bench/RESULTS.md: each entry's `json` blocks of figures
 * (bench/guard/figures.ts), or, in an entry without them, the bench's cold-pages table and load
 * lines pasted into it, at the scale the entry names (`BENCH_SCALE=1`; else its heading's `1M`).
 */
import { readColdTable, readLoads } from './coldTable.ts';
import { figuresFromJson } from './figures.ts';
import type { ListFigures, RecordedFigures } from './figures.ts';

/** one `## <n>. …` section of RESULTS.md */
export interface ResultsEntry {
  readonly number: number;
  readonly heading: string;
  /** the section's text after its heading */
  readonly body: string;
}

export function resultsEntries(markdown: string): ResultsEntry[] {
  const out: ResultsEntry[] = [];
  const parts = markdown.split(/^## /m).slice(1);
  for (const part of parts) {
    const newline = part.indexOf('\n');
    const heading = newline < 0 ? part : part.slice(0, newline);
    const m = /^(\d+)\./.exec(heading);
    if (m !== null) out.push({ number: Number(m[1]), heading: heading.trim(), body: newline < 0 ? '' : part.slice(newline + 1) });
  }
  return out;
}

/** the scale an entry names: `BENCH_SCALE=0.1` in it, else a `1M` / `0.1 M` in its heading */
export function entryScale(entry: ResultsEntry): number | null {
  const env = /BENCH_SCALE=(\d+(?:\.\d+)?)/.exec(`${entry.heading}\n${entry.body}`);
  if (env !== null) return Number(env[1]);
  const heading = /\b(\d+(?:\.\d+)?) ?M\b/.exec(entry.heading);
  return heading === null ? null : Number(heading[1]);
}

function fromJsonBlocks(entry: ResultsEntry): RecordedFigures[] {
  const out: RecordedFigures[] = [];
  for (const m of entry.body.matchAll(/^```json\s*\n([\s\S]*?)^```/gm)) {
    let value: unknown;
    try {
      value = JSON.parse(m[1] ?? '');
    } catch {
      continue; // a json block of something else, or broken: not figures
    }
    for (const v of Array.isArray(value) ? value : [value]) {
      const figures = figuresFromJson(v);
      if (figures !== null) out.push({ ...figures, entry: entry.number });
    }
  }
  return out;
}

function fromTables(entry: ResultsEntry): RecordedFigures[] {
  const scale = entryScale(entry);
  if (scale === null) return [];
  const text = `${entry.heading}\n${entry.body}`;
  const cold = readColdTable(entry.body);
  const loads = readLoads(entry.body);
  const callers = /\| p99 (\d+) callers \|/.exec(entry.body);
  const stores = new Set([...cold.keys(), ...loads.keys()].filter((s) => s === 'sqlite' || s === 'postgres'));
  return [...stores].map((store) => ({
    entry: entry.number,
    store,
    scale,
    contractRecords: !/BENCH_CONTRACT_RECORDS=0/.test(text),
    bulk: !/BENCH_BULK=0/.test(text),
    callers: callers === null ? 16 : Number(callers[1]),
    load: loads.get(store) ?? null,
    lists: Object.fromEntries(cold.get(store) ?? new Map<string, ListFigures>()),
  }));
}

/** every entry's bench:db figures, in the file's order (oldest first) */
export function recordedFigures(markdown: string): RecordedFigures[] {
  return resultsEntries(markdown).flatMap((entry) => {
    const json = fromJsonBlocks(entry);
    return json.length > 0 ? json : fromTables(entry);
  });
}
