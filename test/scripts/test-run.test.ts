// npm test's file list (scripts/test/run.ts): every test file runs, exactly once, alone or in
// one group; each group has its runner file.
import { existsSync } from 'node:fs';
import t from 'tap';
import { TEST_GROUPS } from '../../scripts/quick/groups.ts';
import { testsUnder } from '../../scripts/quick/files.ts';
import { tapFiles } from '../../scripts/test/run.ts';

const all = testsUnder('test');

t.test('every test file once: alone in the list or in exactly one group', async (t) => {
  const files = tapFiles(all);
  const groupFiles = files.filter((f) => f.startsWith('scripts/test/groups/'));
  const alone = files.filter((f) => !f.startsWith('scripts/test/groups/'));
  t.equal(new Set(files).size, files.length, 'no file named twice');
  const inGroups = Object.values(TEST_GROUPS).flat();
  t.equal(new Set(inGroups).size, inGroups.length, 'no file in two groups');
  t.same([...alone, ...inGroups].sort(), [...all].sort(), 'together: every test/**/*.test.ts, nothing else');
  t.ok(alone.every((f) => !inGroups.includes(f)), 'a grouped file does not run alone too');
  t.same(groupFiles, Object.keys(TEST_GROUPS).map((g) => `scripts/test/groups/${g}.ts`), 'a runner per group, the groups first');
  for (const g of groupFiles) t.ok(existsSync(g), `${g} exists`);
  t.ok(all.includes('test/ports/blocks.test.ts') && TEST_GROUPS.ports.includes('test/ports/blocks.test.ts'), 'the port suite is a group');
  t.notOk(all.some((f) => f.includes('node_modules')), "a workspace's node_modules is not searched");
});

t.test('the groups first: tap starts files in the order of their names', async (t) => {
  const files = tapFiles(all);
  const n = Object.keys(TEST_GROUPS).length;
  const byName = [...files].sort((a, b) => a.localeCompare(b, 'en'));
  t.same(byName.slice(0, n), [...files.slice(0, n)].sort((a, b) => a.localeCompare(b, 'en')), 'in tap’s order, the group files before every test file');
  t.ok(TEST_GROUPS['package-install'].includes('test/package/install.test.ts'), 'the slowest file among them');
});

t.test('a group naming a file that does not exist stops the run', async (t) => {
  t.throws(() => tapFiles(all.filter((f) => f !== 'test/ports/blocks.test.ts')), /names files that do not exist: test\/ports\/blocks\.test\.ts/);
});

t.test("npm test's runner imports no tap (a process that does becomes a test, ended by tap's 30 s cap)", async (t) => {
  const { readFileSync } = await import('node:fs');
  const { dirname, join } = await import('node:path');
  const seen = new Set<string>();
  const walk = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/^import .* from '([^']+)';$/gm)) {
      if (spec.startsWith('.')) walk(join(dirname(file), spec));
      else t.not(spec, 'tap', `${file} imports ${spec}`);
    }
  };
  walk('scripts/test/run.ts');
  t.ok(seen.has('scripts/quick/groups.ts') && seen.has('scripts/quick/files.ts'), 'its lists read');
});

t.test('the runner: the build, then the type check beside tap; which failure decides the exit code', async (t) => {
  const { runSuite } = await import('../../scripts/test/run.ts');
  const suite = async (build: number, check: number, tap: number) => {
    let written = '';
    const ran: string[] = [];
    const code = await runSuite(
      {
        build: async () => (ran.push('build'), build),
        check: async () => (ran.push('check'), { code: check, output: check === 0 ? '' : 'lib/a.ts(1,1): error TS1\n' }),
        tap: async () => (ran.push('tap'), tap),
      },
      (text) => (written += text),
    );
    return { code, written, ran };
  };
  t.same(await suite(0, 0, 0), { code: 0, written: '', ran: ['build', 'check', 'tap'] }, 'all green: nothing more said');
  t.same(await suite(2, 0, 0), { code: 2, written: 'npm test: the build failed; no test ran\n', ran: ['build'] }, 'a failed build: no test runs');
  const typeOnly = await suite(0, 1, 0);
  t.equal(typeOnly.code, 1, 'a type error alone fails the run');
  t.match(typeOnly.written, /error TS1\nnpm test: the type check \(tsc --noEmit -p \.\) failed\n$/, 'its errors, then the line that names it');
  const both = await suite(0, 1, 3);
  t.equal(both.code, 3, "tap's code when both failed");
  t.match(both.written, /type check .* failed/, 'the type errors still printed');
  t.same(await suite(0, 0, 1), { code: 1, written: '', ran: ['build', 'check', 'tap'] }, 'a failed test alone');
});
