/**
 * A fixed amount of CPU work, timed, so that a test run's total can be compared across machines
 * (`.ci/run` prints it before npm test): the machines this project runs on differ by up to two
 * times at the same two cores, and a total alone cannot tell a slower suite from a slower
 * machine.
 *
 *   ci: cpu reference 412 ms (median of 9; one core: sha-256, JSON, a sort, a regex)
 *
 * The work is what the suite does most — hashing, JSON, sorting, string matching — on data built
 * from a fixed seed, in this process alone; the median of nine rounds. Prints only; exits 0.
 *
 *   node --import=tsx scripts/cpu-reference.ts [--rounds <n>]
 */
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** One round of the reference work; returns a checksum so that nothing is optimised away. */
export function referenceWork(rowCount = 40_000): number {
  let seed = 0x2f6b_1d3a;
  const next = (): number => {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    return seed;
  };
  const rows = Array.from({ length: rowCount }, (_, i) => ({ i, hash: next().toString(16).padStart(8, '0'), value: next() % 1_000_003 }));
  let check = 0;
  for (let r = 0; r < 4; r += 1) {
    const text = JSON.stringify(rows);
    const parsed = JSON.parse(text) as { i: number; hash: string; value: number }[];
    parsed.sort((a, b) => a.value - b.value || a.i - b.i);
    check ^= parsed[r]?.value ?? 0;
    check ^= createHash('sha256').update(text).digest()[0] ?? 0;
    check ^= (text.match(/"hash":"[0-9a-f]{2}ff/g) ?? []).length;
  }
  return check;
}

/** The median time of `rounds` rounds of `work`, in milliseconds (`now`: a clock in nanoseconds). */
export function referenceMs(rounds = 9, work: () => unknown = referenceWork, now: () => bigint = () => process.hrtime.bigint()): number {
  const times: number[] = [];
  for (let r = 0; r < rounds; r += 1) {
    const start = now();
    work();
    times.push(Number(now() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? 0;
}

/** The line `.ci/run` prints. */
export function referenceLine(rounds = 9, work: () => unknown = referenceWork): string {
  return `ci: cpu reference ${referenceMs(rounds, work).toFixed(0)} ms (median of ${rounds}; one core: sha-256, JSON, a sort, a regex)`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const { values } = parseArgs({ options: { rounds: { type: 'string' } } });
    const rounds = values.rounds === undefined ? 9 : Math.max(1, Number(values.rounds) || 9);
    console.log(referenceLine(rounds));
  } catch (err) {
    console.log(`ci: cpu reference could not be measured (${err instanceof Error ? err.message : String(err)})`);
  }
}
