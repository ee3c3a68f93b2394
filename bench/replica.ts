/**
 * npm run bench:replica — reads through a Postgres streaming replica beside reads of the primary
 * (issue 31): the cost of a request on a replica copy (its own data version read, the copy picked
 * per request) against the same request on the primary, in the same run.
 *
 * Starts a Postgres server of its own and a hot standby streaming from it (test/support/postgres.ts:
 * initdb and pg_basebackup -R into temp dirs), writes the fixture chain into the primary, waits
 * until the replica is in use, then for each endpoint measures p50/p99 over BENCH_SAMPLES
 * (default 2000) requests at BENCH_CONCURRENCY (default 8) callers through createExplorer(...).handle
 * once on a store opened on the primary alone, once on a store opened with the standby as its
 * read replica: with the response cache off (the records read through each copy), then with it on
 * and the data version read on every request (the cost of the copy's own version read). Rounds alternate (BENCH_ROUNDS, default 3); the
 * ratio printed is the median of the rounds' own p50 ratios.
 */
import { createExplorer } from '../lib/index.ts';
import { openSqlStore } from '../adapters/sql/index.ts';
import { loadFixtureChain } from '../fixture/index.ts';
import { startPostgres } from '../test/support/postgres.ts';

const env = (k: string, d: number): number => (process.env[k] === undefined || process.env[k] === '' ? d : Number(process.env[k]));
const SAMPLES = env('BENCH_SAMPLES', 2000);
const CONCURRENCY = env('BENCH_CONCURRENCY', 8);
const ROUNDS = env('BENCH_ROUNDS', 3);

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

type Handle = ReturnType<typeof createExplorer>['handle'];

async function measure(handle: Handle, path: string): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  let next = 0;
  const caller = async (): Promise<void> => {
    while (next++ < SAMPLES) {
      const t0 = performance.now();
      const res = await handle({ method: 'GET', path, query: {} });
      times.push(performance.now() - t0);
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, caller));
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

const primary = await startPostgres();
if (primary === null) {
  console.log('bench:replica: no Postgres server binaries here (initdb, pg_ctl, pg_basebackup): nothing measured');
  process.exit(0);
}
const standby = await primary.standby();
try {
  const writer = await openSqlStore(primary.url());
  const { facts } = await loadFixtureChain(writer);
  const onPrimary = await openSqlStore(primary.url());
  const onReplica = await openSqlStore(primary.url(), { readReplicas: [standby.url()], replicaOptions: { probeMs: 200 } });
  const started = Date.now();
  while (!(onReplica.replicas?.states().every((s) => s.inUse && s.lagSeconds === 0) ?? false)) {
    if (Date.now() - started > 60_000) throw new Error(`the replica did not catch up: ${JSON.stringify(onReplica.replicas?.states())}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const paths = [
    ['blocks', '/api/v2/blocks'],
    ['transactions', '/api/v2/transactions'],
    ['token-transfers', '/api/v2/token-transfers'],
    ['a transaction', `/api/v2/transactions/${facts.transactions.eip1559}`],
  ] as const;
  // cache off: the records read through each copy; cache on with the version read on every
  // request: what is left is the copy's own data version read (and the hit)
  const modes = [
    ['cache off', { maxEntries: 0 }],
    ['cache on, its version read every request', { versionPollMs: 0 }],
  ] as const;
  for (const [mode, cache] of modes) {
    const explorers = {
      primary: createExplorer({ chains: { '1': onPrimary }, cache }).handle,
      replica: createExplorer({ chains: { '1': onReplica }, cache }).handle,
    };
    console.log(`\nbench:replica (${mode}): ${SAMPLES} requests × ${ROUNDS} rounds at ${CONCURRENCY} callers; p50 / p99 in ms (medians of the rounds)`);
    for (const [name, path] of paths) {
      const rows: { primary: { p50: number; p99: number }[]; replica: { p50: number; p99: number }[] } = { primary: [], replica: [] };
      await measure(explorers.primary, path);
      await measure(explorers.replica, path);
      for (let r = 0; r < ROUNDS; r++) {
        rows.primary.push(await measure(explorers.primary, path));
        rows.replica.push(await measure(explorers.replica, path));
      }
      const ratio = median(rows.replica.map((x, i) => x.p50 / (rows.primary[i]?.p50 ?? NaN)));
      const fmt = (xs: { p50: number; p99: number }[]): string => `${median(xs.map((x) => x.p50)).toFixed(2)} / ${median(xs.map((x) => x.p99)).toFixed(2)}`;
      console.log(`${name.padEnd(16)} primary ${fmt(rows.primary)} | through the replica ${fmt(rows.replica)} | p50 ratio ${ratio.toFixed(2)}`);
    }
  }
  await Promise.all([writer.close(), onPrimary.close(), onReplica.close()]);
} finally {
  await standby.close();
  await primary.close();
}
