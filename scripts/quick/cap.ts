/**
 * Seconds a test file may take, its teardowns included, before it counts as hung: tap's
 * `--timeout` for a file npm test runs alone (scripts/test/run.ts), and each file's own cap in a
 * group (scripts/quick/run.ts). A guard against a hang, not a timing: far above any file's time
 * (the slowest, about 110 s on a quiet machine), which a loaded machine stretches.
 * `SCOUTKIT_TEST_FILE_CAP_S` sets it. Imports nothing: npm test's runner must not load tap.
 */
export const FILE_CAP_S = Number(process.env.SCOUTKIT_TEST_FILE_CAP_S ?? 600);
