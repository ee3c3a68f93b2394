/**
 * Seconds a test file may take, its teardowns included, before it counts as hung: tap's
 * `--timeout` for a file npm test runs alone (scripts/test/run.ts), and each file's own cap in a
 * group (scripts/quick/run.ts), and `npx tap <file>`'s (package.json's tap `timeout`, the same
 * number). A guard against a hang, not a timing: far above any file's time, which a loaded
 * machine stretches (the slowest, test/package/install.test.ts: about 110 s on a quiet fast
 * machine, 265 s on a slower one beside a CPU hog, 507 s there beside a hog and a profiler).
 * No test file sets a timeout of its own (test/scripts/timeouts.test.ts): one of 60 s stopped a
 * sound run on a loaded machine. `SCOUTKIT_TEST_FILE_CAP_S` sets it. Imports nothing: npm
 * test's runner must not load tap.
 */
export const DEFAULT_FILE_CAP_S = 900;
export const FILE_CAP_S = Number(process.env.SCOUTKIT_TEST_FILE_CAP_S ?? DEFAULT_FILE_CAP_S);
