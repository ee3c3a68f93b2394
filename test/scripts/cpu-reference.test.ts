// .ci/run's fixed piece of CPU work (scripts/cpu-reference.ts): the same work every round (its
// checksum), a time for it, and the line .ci/run prints.
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { referenceMs, referenceWork } from '../../scripts/cpu-reference.ts';

t.test('the same work every round', async (t) => {
  t.equal(referenceWork(), referenceWork());
});

t.test('a time for it, the median of its rounds', async (t) => {
  const ms = referenceMs(1);
  t.ok(Number.isFinite(ms) && ms > 0, `a positive time (${ms} ms)`);
});

t.test('the line .ci/run prints', async (t) => {
  const out = execFileSync(process.execPath, ['--import=tsx', 'scripts/cpu-reference.ts', '--rounds', '1'], { encoding: 'utf8' });
  t.match(out, /^ci: cpu reference \d+ ms \(median of 1; one core: sha-256, JSON, a sort, a regex\)\n$/);
});
