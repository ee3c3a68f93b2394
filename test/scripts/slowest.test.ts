// .ci/run's list of the slowest test files (scripts/slowest.ts) from a raw TAP log: files alone,
// a group process, and the files inside it by their `# group:` lines.
import t from 'tap';
import { fromTapLog, report } from '../../scripts/slowest.ts';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const LOG = [
  'TAP version 14',
  '# Subtest: scripts/test/groups/lib.ts',
  '    # Subtest: a test',
  '        ok 1 - x',
  '    ok 1 - a test # time=3.1ms',
  '    # group: test/lib/json.test.ts 4.2 s',
  '    # group: test/lib/csv.test.ts 0.3 s (cpu 0.2 s)',
  '    1..1',
  'ok 1 - scripts/test/groups/lib.ts # time=5100ms',
  '# Subtest: test/indexer/reorg.test.ts',
  '    not ok 1 - boom',
  'not ok 2 - test/indexer/reorg.test.ts # time=7000.5ms',
  '1..2',
  '# time=7200ms',
].join('\n');

t.test('files alone, the group process and the files in it', async (t) => {
  const { files, totalMs } = fromTapLog(LOG);
  t.equal(totalMs, 7200);
  t.same(files.get('scripts/test/groups/lib.ts'), { file: 'scripts/test/groups/lib.ts', ms: 5100, failed: false });
  t.same(files.get('test/lib/json.test.ts'), { file: 'test/lib/json.test.ts', ms: 4200, failed: false, grouped: true });
  t.same(files.get('test/lib/csv.test.ts'), { file: 'test/lib/csv.test.ts', ms: 300, failed: false, grouped: true }, 'a line with its CPU time too');
  t.same(files.get('test/indexer/reorg.test.ts'), { file: 'test/indexer/reorg.test.ts', ms: 7000.5, failed: true });
  t.equal(files.size, 4);
});

t.test('the report: slowest first, grouped and failed files marked', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'scoutkit-slowest-'));
  const log = join(dir, 'tap.log');
  writeFileSync(log, LOG);
  const lines = report({ log, processinfo: join(dir, 'none'), top: 3, totalSeconds: 9 });
  t.same(lines, [
    'ci: slowest test files',
    '      7.0 s  test/indexer/reorg.test.ts  (failed)',
    '      5.1 s  scripts/test/groups/lib.ts',
    '      4.2 s  test/lib/json.test.ts  (in a group)',
    'ci: total 9.0 s (npm test; tap 7.2 s, 4 files)',
  ]);
});
