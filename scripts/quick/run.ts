/**
 * `npm run test:quick`: test files that need no anvil, no Postgres, no external process and no
 * build, run in one process per group (the lists: groups.ts; tap runs the two groups side by
 * side) instead of one process each. Starting node, tsx and the modules a test imports costs
 * about a second a file; most of these files test for less than that, so a group of them in one
 * process is several times quicker. `npm test` still runs every file alone.
 *
 * One file at a time, as if each had the process to itself: a file is imported (its top level
 * runs and queues its tests on tap's root), its tests run to the end, then the root
 * `t.teardown`s it registered run (servers closed, stores closed, temp dirs removed), a comment
 * `# group: <file> <seconds> s (cpu <seconds> s)` is printed (its wall time, and the CPU this
 * process spent on it: a file whose wall time is far above its CPU waits, on a timer or a
 * child), and only then is the next file imported. Its
 * root teardowns are run here rather than registered with tap, because tap ends the root as
 * soon as it is idle once a teardown exists (it would end the group after the first file). A
 * file that fails to load is one failing assertion, and the others still run.
 *
 * The guard against a hang is per file, as for a file tap runs alone: each file has
 * FILE_CAP_S (its own root `t.setTimeout` is ignored) and the group none of its own, so a group
 * of many files on a loaded machine is not stopped for the sum of their times. A file past its
 * cap is named, and the group process ends with a failure.
 */
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import t from 'tap';
import { FILE_CAP_S } from './cap.ts';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));


/** a file past its cap: named on both streams, and the group ends failed (what hangs cannot be stopped otherwise) */
function hung(file: string): never {
  const line = `not ok - ${file} still running after ${FILE_CAP_S} s (the cap of a file: a hang?); the group stops here\n`;
  process.stdout.write(line);
  process.stderr.write(line);
  process.exit(1);
}

/** resolves when tap's root has no test queued or running */
const rootIdle = (): Promise<void> => (t.idle ? Promise.resolve() : new Promise((done) => t.once('idle', () => done())));

/** Run each test file (a path relative to the repository) in this process, one after another. */
export async function runInOneProcess(files: readonly string[]): Promise<void> {
  const teardown = t.teardown;
  const setRootTimeout = t.setTimeout;
  let teardowns: Array<() => unknown> = [];
  t.teardown = (fn: () => unknown) => void teardowns.push(fn);
  t.setTimeout = () => {};
  setRootTimeout.call(t, 0); // no cap on the group: each file has its own
  try {
    for (const file of files) {
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      const watchdog = setTimeout(() => hung(file), FILE_CAP_S * 1000);
      try {
        await import(pathToFileURL(resolve(ROOT, file)).href);
      } catch (err) {
        t.error(err, `${file} loads and runs its top level`); // fails; the other files still run
      }
      await rootIdle();
      const fns = teardowns;
      teardowns = [];
      for (const fn of fns) {
        try {
          await fn();
        } catch (err) {
          t.error(err, `${file}: a teardown`);
        }
      }
      clearTimeout(watchdog);
      const cpu = process.cpuUsage(cpuBefore);
      t.comment(`group: ${file} ${((performance.now() - started) / 1000).toFixed(1)} s (cpu ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s)`);
    }
  } finally {
    t.teardown = teardown;
    t.setTimeout = setRootTimeout;
  }
  t.end();
}
