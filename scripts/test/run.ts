/**
 * `npm test`'s tap run (after the build and the type check): every `test/**\/*.test.ts`, those
 * that run in this process's company (scripts/quick/groups.ts TEST_GROUPS: lib, the port suite,
 * the conformance suite on memory, the host in process; and the two slowest files, one each)
 * in group processes (scripts/test/groups/<name>.ts, one file after another:
 * scripts/quick/run.ts), every other file in a process of its own, three at a time on the
 * machine's two CPUs: most files that need anvil, Postgres or a child process wait on them more
 * than they compute. tap starts the files in the order of their names: the groups first.
 *
 *   node --import=tsx scripts/test/run.ts [more tap options]
 *
 * SCOUTKIT_TEST_JOBS sets the number of files at a time (default 3). The cap per file
 * (`--timeout`, 300 s) is a guard against a hang, far above any file's time: a group takes
 * 30–90 s alone, the slowest file about 60 s.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
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

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const tap = join(dirname(createRequire(import.meta.url).resolve('tap/package.json')), 'dist/esm/run.mjs');
  const jobs = process.env.SCOUTKIT_TEST_JOBS ?? '3';
  const child = spawn(process.execPath, [tap, `--jobs=${jobs}`, '--timeout=300', ...tapFiles(), ...process.argv.slice(2)], { cwd: ROOT, stdio: 'inherit' });
  const stop = (signal: NodeJS.Signals): void => void child.kill(signal);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? (signal === null ? 1 : 128);
  });
}
