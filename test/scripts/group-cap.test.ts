// A group's guard against a hang is per file (scripts/quick/run.ts): a file that never ends is
// named once past its cap and the group ends failed, without running the files after it; a group
// whose files end is not stopped by any cap of its own.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';

const ROOT = join(import.meta.dirname, '../..');
// inside the repository, so that the files' `import 'tap'` finds the project's tap
mkdirSync(join(ROOT, 'node_modules', '.cache'), { recursive: true });
const dir = mkdtempSync(join(ROOT, 'node_modules', '.cache', 'scoutkit-group-cap-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

const runner = pathToFileURL(join(ROOT, 'scripts/quick/run.ts')).href;
const file = (name: string, body: string): string => {
  const path = join(dir, name);
  writeFileSync(path, body);
  return path;
};
const ends = file('ends.test.mjs', "import t from 'tap';\nt.pass('ran');\n");
// never settles, and keeps the process alive as a hung test does (a server nobody closes)
const hangs = file('hangs.test.mjs', 'setInterval(() => {}, 1_000);\nawait new Promise(() => {});\n');
const after = file('after.test.mjs', "import t from 'tap';\nt.pass('after ran');\n");

/** a group of `files` in a process of its own, as npm test runs one, with the cap `cap` */
function group(files: readonly string[], cap: string): { status: number | null; stdout: string; stderr: string } {
  const main = file('group.mjs', `import { runInOneProcess } from ${JSON.stringify(runner)};\nawait runInOneProcess(${JSON.stringify(files)});\n`);
  const r = spawnSync(process.execPath, ['--import=tsx', main], {
    cwd: ROOT,
    env: { ...process.env, SCOUTKIT_TEST_FILE_CAP_S: cap, TAP_TIMEOUT: '0' },
    encoding: 'utf8',
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

t.test('a file past its cap is named and the group ends failed, the files after it not run', async (t) => {
  const r = group([ends, hangs, after], '1');
  t.equal(r.status, 1, 'the group exits 1');
  t.match(r.stdout, /ok \d+ - ran/, 'the file before it ran');
  t.match(r.stdout, new RegExp(`not ok - ${hangs.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} still running after 1 s`), 'the hung file named on stdout');
  t.match(r.stderr, /hangs\.test\.mjs still running after 1 s \(the cap of a file: a hang\?\); the group stops here/, 'and on stderr');
  t.notMatch(r.stdout, /after ran/, 'the file after it did not run');
});

t.test('files that end: the group passes, each file timed, no cap of its own', async (t) => {
  const r = group([ends, after], '600');
  t.equal(r.status, 0, 'the group exits 0');
  t.match(r.stdout, /ok \d+ - ran/);
  t.match(r.stdout, /ok \d+ - after ran/);
  t.match(r.stdout, /# group: .*ends\.test\.mjs [\d.]+ s/, "each file's line");
});
