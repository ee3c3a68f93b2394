// .ci/run's fixed piece of CPU work (scripts/cpu-reference.ts): the same work every round (its
// checksum), a time for it, and the line .ci/run prints — on a small slice of the work (the
// whole is about half a second a round on a slow machine, and this file runs in test:quick).
import t from 'tap';
import { referenceLine, referenceMs, referenceWork } from '../../scripts/cpu-reference.ts';

t.test('the same work every round', async (t) => {
  t.equal(referenceWork(2_000), referenceWork(2_000));
});

t.test('a time for it, over as many rounds as asked: their median', async (t) => {
  // a clock the work moves: rounds of 5, 1 and 3 ms
  const lengths = [5_000_000n, 1_000_000n, 3_000_000n];
  let clock = 0n;
  let rounds = 0;
  const ms = referenceMs(3, () => (clock += lengths[rounds++] ?? 0n), () => clock);
  t.equal(rounds, 3);
  t.equal(ms, 3, 'the middle round');
});

t.test('the line .ci/run prints', async (t) => {
  t.match(referenceLine(1, () => referenceWork(500)), /^ci: cpu reference \d+ ms \(median of 1; one core: sha-256, JSON, a sort, a regex\)$/);
});
