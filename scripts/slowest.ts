/**
 * The slowest test files of the last tap run, for `.ci/run` (after tap's summary, on green and
 * red runs):
 *
 *   ci: slowest test files
 *      312.4 s  test/package/install.test.ts
 *      …  (10 lines)
 *   ci: total 1370.2 s (npm test; tap 1301.0 s, 161 files)
 *
 * A file's time is its process's wall time as tap's processinfo recorded it
 * (`.tap/processinfo/<uuid>.json`: `externalID` is the test file, `runtime` the milliseconds from
 * the process's start to its exit, written on exit, also when tap kills it for a timeout); a
 * file without a record there (another tap run in the same checkout cleared the folder, say)
 * takes the `# time=` of its line in the TAP log (`.ci/run` pipes npm test, so tap's reporter is
 * `tap`: the raw stream), the time the file's own tap measured, which
 * leaves out starting node and loading the modules. Prints only; exits 0 whatever it finds.
 *
 *   node --import=tsx scripts/slowest.ts [--log <tap output>] [--since <epoch ms>]
 *     [--total <seconds>] [--top <n>] [--processinfo <dir>]
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

interface FileTime {
  readonly file: string;
  readonly ms: number;
  readonly failed: boolean;
  /** a file npm test ran inside a group process (its time from the group's `# group:` line) */
  readonly grouped?: boolean;
}

/** root test processes of tap's run (records written since `since`), by test file */
export function fromProcessInfo(dir: string, since = 0): Map<string, FileTime> {
  const out = new Map<string, FileTime & { at: number }>();
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.json')) continue;
    let info: { externalID?: unknown; parent?: unknown; runtime?: unknown; date?: unknown; code?: unknown; signal?: unknown };
    try {
      info = JSON.parse(readFileSync(join(dir, name), 'utf8')) as typeof info;
    } catch {
      continue; // being written, or not ours
    }
    if (typeof info.externalID !== 'string' || info.parent !== null || typeof info.runtime !== 'number') continue;
    const at = typeof info.date === 'string' ? Date.parse(info.date) : NaN;
    if (since > 0 && !(at >= since)) continue;
    const prev = out.get(info.externalID);
    if (prev !== undefined && prev.at > at) continue;
    out.set(info.externalID, { file: info.externalID, ms: info.runtime, failed: info.code !== 0 || info.signal != null, at });
  }
  return new Map([...out].map(([k, { at: _at, ...v }]) => [k, v]));
}

/**
 * The files of a raw TAP log and their `# time=`: each top-level test point
 * (`ok 3 - test/x.test.ts # time=12.3ms`) under its `# Subtest: test/x.test.ts` header (a file
 * that timed out ends in `not ok 4 - timeout!`, without a time), and tap's total.
 */
export function fromTapLog(text: string): { named: Set<string>; files: Map<string, FileTime>; totalMs: number | undefined } {
  const named = new Set<string>();
  const files = new Map<string, FileTime>();
  let totalMs: number | undefined;
  let header: string | undefined;
  for (const line of text.split('\n')) {
    const inGroup = /^\s+# group: (\S+) ([\d.]+) s(?: \(cpu [\d.]+ s\))?\s*$/.exec(line); // scripts/quick/run.ts, after each file of a group
    if (inGroup !== null) {
      files.set(inGroup[1], { file: inGroup[1], ms: Number(inGroup[2]) * 1000, failed: false, grouped: true });
      continue;
    }
    const sub = /^# Subtest: (.+?)\s*$/.exec(line);
    if (sub !== null) {
      header = sub[1];
      named.add(header);
      continue;
    }
    const point = /^(not )?ok \d+ - (.+?)(?: # (?:.*?\s)?time=([\d.]+)ms)?\s*$/.exec(line);
    if (point !== null) {
      const file = header ?? point[2];
      header = undefined;
      named.add(file);
      if (point[3] !== undefined) files.set(file, { file, ms: Number(point[3]), failed: point[1] !== undefined });
      else if (point[1] !== undefined) files.set(file, { file, ms: files.get(file)?.ms ?? NaN, failed: true });
      continue;
    }
    const total = /^# time=([\d.]+)ms\s*$/.exec(line);
    if (total !== null) totalMs = Number(total[1]);
  }
  return { named, files, totalMs };
}

const seconds = (ms: number): string => (Number.isNaN(ms) ? '?' : (ms / 1000).toFixed(1));

export function report(opts: { log?: string; since?: number; totalSeconds?: number; top?: number; processinfo?: string }): string[] {
  const fromLog = opts.log !== undefined && existsSync(opts.log) ? fromTapLog(readFileSync(opts.log, 'utf8')) : { named: new Set<string>(), files: new Map<string, FileTime>(), totalMs: undefined };
  const times = new Map(fromLog.files);
  for (const [file, t] of fromProcessInfo(opts.processinfo ?? join(ROOT, '.tap/processinfo'), opts.since)) {
    // with a log that names the files, only those: another run in this checkout may have written records too
    if (fromLog.named.size > 0 && !fromLog.named.has(file)) continue;
    times.set(file, { ...t, failed: t.failed || (fromLog.files.get(file)?.failed ?? false) });
  }
  const known = (ms: number): number => (Number.isNaN(ms) ? -1 : ms); // a time unknown (a file that timed out, no record) sorts last
  const sorted = [...times.values()].sort((a, b) => known(b.ms) - known(a.ms) || (a.file < b.file ? -1 : 1));
  const lines = ['ci: slowest test files'];
  if (sorted.length === 0) lines.push('  (none: tap did not run, or left no results)');
  for (const f of sorted.slice(0, opts.top ?? 10)) lines.push(`  ${seconds(f.ms).padStart(7)} s  ${f.file}${f.grouped === true ? '  (in a group)' : ''}${f.failed ? '  (failed)' : ''}`);
  const detail: string[] = [];
  if (fromLog.totalMs !== undefined) detail.push(`tap ${seconds(fromLog.totalMs)} s`);
  if (sorted.length > 0) detail.push(`${sorted.length} files`);
  const total = opts.totalSeconds ?? (fromLog.totalMs === undefined ? undefined : fromLog.totalMs / 1000);
  const what = opts.totalSeconds === undefined ? '' : 'npm test; ';
  lines.push(total === undefined ? 'ci: total unknown' : `ci: total ${total.toFixed(1)} s${detail.length > 0 || what !== '' ? ` (${what}${detail.join(', ')})` : ''}`);
  return lines;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const { values } = parseArgs({
      options: { log: { type: 'string' }, since: { type: 'string' }, total: { type: 'string' }, top: { type: 'string' }, processinfo: { type: 'string' } },
    });
    const num = (s: string | undefined): number | undefined => (s === undefined || s === '' || !Number.isFinite(Number(s)) ? undefined : Number(s));
    const lines = report({ log: values.log, since: num(values.since), totalSeconds: num(values.total), top: num(values.top), processinfo: values.processinfo });
    process.stdout.write(`${lines.join('\n')}\n`);
  } catch (err) {
    process.stdout.write(`ci: slowest test files: ${err instanceof Error ? err.message : String(err)}\n`);
  }
}
