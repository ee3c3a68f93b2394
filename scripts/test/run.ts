/**
 * `npm test`: the build, then the type check beside tap, which runs every `test/**\/*.test.ts`, those
 * that can share a process (scripts/quick/groups.ts TEST_GROUPS: lib, the port suite,
 * the conformance suite on memory, the host in process, the SQL store's tests in two groups, the
 * conformance suite on SQLite and Postgres; and the two slowest files, one each)
 * in group processes (scripts/test/groups/<name>.ts, one file after another:
 * scripts/quick/run.ts), every other file in a process of its own, three at a time on the
 * machine's two CPUs: most files that need anvil, Postgres or a child process wait on them more
 * than they compute. tap starts the files in the order of their names: the groups first.
 *
 *   node --import=tsx scripts/test/run.ts [more tap options]
 *
 * SCOUTKIT_TEST_JOBS sets the number of files at a time (default 3). The cap per file
 * (`--timeout`, FILE_CAP_S: 900 s) is a guard against a hang, far above any file's time; a group
 * has no cap of its own, each of its files has that one (scripts/quick/run.ts), so a loaded
 * machine, which stretches a group of twelve files twelve times as much as one, stops nothing.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FILE_CAP_S } from '../quick/cap.ts';
import { TEST_GROUPS } from '../quick/groups.ts';
import { testsUnder } from '../quick/files.ts';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** tap's arguments: the group files, then every file of no group */
export function tapFiles(all: readonly string[] = testsUnder('test')): string[] {
  const grouped = new Set(Object.values(TEST_GROUPS).flat());
  const missing = [...grouped].filter((f) => !all.includes(f));
  if (missing.length > 0) throw new Error(`scripts/quick/groups.ts names files that do not exist: ${missing.join(', ')}`);
  const groups = Object.keys(TEST_GROUPS).map((name) => `scripts/test/groups/${name}.ts`);
  return [...groups, ...all.filter((f) => !grouped.has(f))];
}

/** a command to its end, its output passed through; resolves with its exit code */
function run(file: string, args: readonly string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(file, [...args], { cwd: ROOT, stdio: 'inherit' });
    const stop = (signal: NodeJS.Signals): void => void child.kill(signal);
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    child.on('error', () => resolve(1));
    child.on('exit', (code, signal) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(code ?? (signal === null ? 1 : 128));
    });
  });
}

/** a command to its end with its output kept: its exit code and output */
function quietly(file: string, args: readonly string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(file, [...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', (e) => resolve({ code: 1, output: e.message }));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** the three steps of npm test, as run.ts runs them (a test gives its own) */
export interface SuiteSteps {
  build(): Promise<number>;
  /** the type check: its exit code and its output (printed only when it failed) */
  check(): Promise<{ readonly code: number; readonly output: string }>;
  tap(): Promise<number>;
}

/**
 * The build, then the type check beside tap; the exit code: the build's when it failed (and no
 * test ran), else tap's when it failed, else the type check's. The type check's errors are
 * written after tap's output, ending with the line that names it.
 */
export async function runSuite(steps: SuiteSteps, write: (text: string) => void): Promise<number> {
  const built = await steps.build();
  if (built !== 0) {
    write('npm test: the build failed; no test ran\n');
    return built;
  }
  const [checked, tested] = await Promise.all([steps.check(), steps.tap()]);
  if (checked.code !== 0) write(`${checked.output}npm test: the type check (tsc --noEmit -p .) failed\n`);
  return tested !== 0 ? tested : checked.code;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // the build first (dist/: the examples, which the type check covers too, and the package's tests import it);
  // package.json's build, told not to type-check (`--noCheck`, passed to its tsc): the type check
  // beside tap covers the same sources (tsconfig.json includes lib/, adapters/, host/, fixture/ and
  // bin/), and tap starts about 10 s sooner. `npm run build` alone (and so `npm pack`) still checks.
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const tap = join(dirname(createRequire(import.meta.url).resolve('tap/package.json')), 'dist/esm/run.mjs');
  const jobs = process.env.SCOUTKIT_TEST_JOBS ?? '3';
  process.exitCode = await runSuite(
    {
      build: () => run('npm', ['run', 'build', '--', '--noCheck']),
      check: () => quietly(process.execPath, [tsc, '--noEmit', '-p', '.']),
      tap: () => run(process.execPath, [tap, `--jobs=${jobs}`, `--timeout=${FILE_CAP_S}`, ...tapFiles(), ...process.argv.slice(2)]),
    },
    (text) => void (text.startsWith('npm test: the build') ? process.stderr.write(text) : process.stdout.write(text)),
  );
}
