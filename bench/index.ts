/**
 * npm run bench:index — indexer throughput against a filled anvil (issue 5, "Benchmark").
 *
 * Starts anvil, fills it once with BENCH_TXS mixed transactions (default 20,000: ETH and legacy
 * transfers, ERC-20 transfers/approvals, ERC-721 mints, ERC-1155 single/batch transfers, a
 * value-splitting router with a reverting inner call, reverts, contract-creating factory calls),
 * then indexes the whole chain (block 0 to the head) with the real indexer and RPC ChainSource
 * into each target, each in its own process (bench/index-runner.ts) so RSS is per target:
 *
 *   fetch-only  a sink that discards writes: exactly what the indexer fetches (blocks with
 *               transactions, receipts, call traces, prestate diffs, code, token reads,
 *               metadata) and its in-memory transforms — the baseline
 *   memory      adapters/memory (reference; it holds the whole chain, so its RSS grows)
 *   sqlite      a temporary SQLite file through adapters/sql
 *   postgres    a fresh schema at DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test),
 *               dropped afterwards
 *
 * Reports blocks/s, tx/s, the ratio to fetch-only in the same run (target ≥ 0.80), peak RSS and
 * RSS at 25/50/75/100 % of the blocks (target: flat). The measured phases repeat BENCH_RUNS times
 * (default 1; the chain is filled once) and medians are printed. Exits 0 when targets are missed
 * (it is a report), non-zero on errors.
 *
 * Environment: BENCH_TXS (20000), BENCH_PER_BLOCK (20; anvil traces big blocks in quadratic time), BENCH_RUNS (1),
 * BENCH_TARGETS (fetch,memory,sqlite,postgres), BENCH_CONCURRENCY / BENCH_BATCH (indexer
 * concurrency / batchSize; default the indexer's), BENCH_CPU_PROF (a directory: runners write
 * .cpuprofile files there), DATABASE_URL.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import knexFactory from 'knex';
import { startAnvil } from '../demo/anvil.ts';
import type { Anvil } from '../demo/anvil.ts';
import { fillChain } from '../demo/fill.ts';
import type { RunnerConfig, RunnerResult, Target } from './index-runner.ts';

const env = (k: string, d: number): number => {
  const v = process.env[k];
  if (v === undefined || v === '') return d;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${k}: not a positive number: ${v}`);
  return n;
};
const optEnv = (k: string): number | undefined => (process.env[k] ? env(k, 1) : undefined);

const TXS = env('BENCH_TXS', 20_000);
// anvil's debug_traceBlockByNumber replays the block for every transaction (quadratic: ~0.1 s
// for 20 txs, ~6 s for 200), so big blocks measure anvil, not scoutkit
const PER_BLOCK = env('BENCH_PER_BLOCK', 20);
const RUNS = env('BENCH_RUNS', 1);
const CONCURRENCY = optEnv('BENCH_CONCURRENCY');
const BATCH = optEnv('BENCH_BATCH');
const CPU_PROF = process.env.BENCH_CPU_PROF;
const DATABASE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const ALL_TARGETS: readonly Target[] = ['fetch', 'memory', 'sqlite', 'postgres'];
const TARGETS: Target[] = (process.env.BENCH_TARGETS ?? ALL_TARGETS.join(','))
  .split(',')
  .map((s) => s.trim())
  .filter((s) => s !== '')
  .map((s) => {
    if (!(ALL_TARGETS as readonly string[]).includes(s)) throw new Error(`BENCH_TARGETS: unknown target ${s} (${ALL_TARGETS.join(', ')})`);
    return s as Target;
  });
if (!TARGETS.includes('fetch')) TARGETS.unshift('fetch'); // the baseline of every ratio
const LABEL: Record<Target, string> = { fetch: 'fetch-only', memory: 'memory', sqlite: 'sqlite', postgres: 'postgres' };

const root = fileURLToPath(new URL('..', import.meta.url));
const runnerFile = fileURLToPath(new URL('./index-runner.ts', import.meta.url));

// ---- child processes: tracked, killed on exit --------------------------------------------------

const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});
// Ctrl-C / SIGTERM: end the runners; the run fails and `finally` drops schemas and stops anvil.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`${signal}: stopping`);
    for (const c of children) c.kill('SIGKILL');
  });
}

function runTarget(config: RunnerConfig): Promise<RunnerResult> {
  const nodeArgs = ['--import', 'tsx', ...(CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', CPU_PROF, '--cpu-prof-name', `${config.target}-${Date.now()}.cpuprofile`] : [])];
  const child = spawn(process.execPath, [...nodeArgs, runnerFile, JSON.stringify(config)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr?.setEncoding('utf8').on('data', (s: string) => (err += s));
  return new Promise((resolve, reject) => {
    child.once('error', (e) => {
      children.delete(child);
      reject(e);
    });
    child.once('exit', (code, signal) => {
      children.delete(child);
      if (code !== 0) return reject(new Error(`${config.target} runner exited with ${signal ?? `code ${code}`}\n${err.trim()}`));
      const line = out.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(line) as RunnerResult);
      } catch {
        reject(new Error(`${config.target} runner printed no result: ${out.trim()}\n${err.trim()}`));
      }
    });
  });
}

// ---- Postgres -------------------------------------------------------------------------------

function pg() {
  return knexFactory({ client: 'pg', connection: { connectionString: DATABASE_URL, connectionTimeoutMillis: 3000 }, pool: { min: 0, max: 1 } });
}
async function postgresUnreachable(): Promise<string | null> {
  const knex = pg();
  try {
    await knex.raw('select 1');
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  } finally {
    await knex.destroy();
  }
}
async function dropSchema(schema: string): Promise<void> {
  const knex = pg();
  try {
    await knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]);
  } finally {
    await knex.destroy();
  }
}

// ---- figures --------------------------------------------------------------------------------

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[m] ?? NaN) : ((s[m - 1] ?? NaN) + (s[m] ?? NaN)) / 2;
};
const mib = (bytes: number): string => (Number.isFinite(bytes) ? `${(bytes / 2 ** 20).toFixed(0)}` : '-');

interface Measured {
  readonly result: RunnerResult;
  /** to fetch-only of the same run (tx/s) */
  readonly ratio: number;
}

// ---- main -----------------------------------------------------------------------------------

let anvil: Anvil | undefined;
const schemas: string[] = [];
const files: string[] = [];
let failed = false;
try {
  if (TARGETS.includes('postgres')) {
    const reason = await postgresUnreachable();
    if (reason !== null) {
      console.error(`!!!!! POSTGRES UNREACHABLE at ${DATABASE_URL.replace(/:[^:@/]*@/, ':***@')} (${reason}) — SKIPPING THE POSTGRES TARGET !!!!!`);
      TARGETS.splice(TARGETS.indexOf('postgres'), 1);
    }
  }

  anvil = await startAnvil();
  const fillStart = performance.now();
  let lastReport = 0;
  const fill = await fillChain(anvil.url, {
    transactions: TXS,
    perBlock: PER_BLOCK,
    onProgress: (sent, total) => {
      const t = performance.now();
      if (t - lastReport < 5000) return;
      lastReport = t;
      process.stderr.write(`fill: ${sent}/${total} transactions\n`);
    },
  });
  const fillSeconds = (performance.now() - fillStart) / 1000;
  const to = Number(fill.toBlock);
  const kinds = Object.entries(fill.kinds)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  console.log(
    `scoutkit index bench: anvil filled with ${fill.transactions} transactions (${fill.setupTransactions} setup) in ${fillSeconds.toFixed(1)} s; ` +
      `indexing blocks 0..${to}`,
  );
  console.log(`  kinds: ${kinds}`);
  console.log(
    `  ${RUNS} run(s) × targets ${TARGETS.map((t) => LABEL[t]).join(', ')}, each in its own process; ` +
      `indexer concurrency ${CONCURRENCY ?? 'default'}, batch ${BATCH ?? 'default'}; 2-core shared machine: compare ratios within a run`,
  );

  const runs: Map<Target, Measured>[] = [];
  for (let run = 0; run < RUNS; run++) {
    const measured = new Map<Target, Measured>();
    let baseline: RunnerResult | undefined;
    for (const target of TARGETS) {
      const base = {
        rpc: anvil.url,
        from: 0,
        to,
        ...(CONCURRENCY !== undefined ? { concurrency: CONCURRENCY } : {}),
        ...(BATCH !== undefined ? { batchSize: BATCH } : {}),
      };
      let config: RunnerConfig;
      let cleanup: () => Promise<void> = async () => {};
      if (target === 'sqlite') {
        const file = join(tmpdir(), `scoutkit-bench-index-${process.pid}-${randomBytes(4).toString('hex')}.sqlite`);
        files.push(file);
        config = { ...base, target, url: file };
        cleanup = async () => {
          for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
        };
      } else if (target === 'postgres') {
        const schema = `scoutkit_bench_index_${process.pid}_${randomBytes(4).toString('hex')}`;
        schemas.push(schema);
        config = { ...base, target, url: DATABASE_URL, schema };
        cleanup = () => dropSchema(schema);
      } else {
        config = { ...base, target };
      }
      try {
        const result = await runTarget(config);
        if (target === 'fetch') baseline = result;
        const tps = result.transactions / (result.ms / 1000);
        const baseTps = baseline === undefined ? NaN : baseline.transactions / (baseline.ms / 1000);
        measured.set(target, { result, ratio: tps / baseTps });
        process.stderr.write(
          `run ${run + 1}/${RUNS} ${LABEL[target]}: ${result.blocks} blocks, ${result.transactions} txs in ${(result.ms / 1000).toFixed(1)} s, ` +
            `${tps.toFixed(0)} tx/s, ratio ${(tps / baseTps).toFixed(2)}, ${(result.writeMs / 1000).toFixed(1)} s in writeBlocks, peak RSS ${mib(result.rssPeak)} MiB, ${result.requests} RPC requests\n`,
        );
      } finally {
        await cleanup();
      }
    }
    runs.push(measured);
  }

  // ---- table (medians over runs) ----
  const header = ['target', 'blocks/s', 'tx/s', 'ratio', 'peak RSS', 'RSS start', 'RSS @25%', '@50%', '@75%', '@100%', 'write s', 'total s', 'RPC reqs'];
  const rows: string[][] = [];
  let worst = Infinity;
  for (const target of TARGETS) {
    const ms = runs.map((r) => r.get(target)).filter((m): m is Measured => m !== undefined);
    if (ms.length === 0) continue;
    const med = (f: (m: Measured) => number): number => median(ms.map(f));
    const bps = med((m) => m.result.blocks / (m.result.ms / 1000));
    const tps = med((m) => m.result.transactions / (m.result.ms / 1000));
    const ratio = med((m) => m.ratio);
    if (target === 'sqlite' || target === 'postgres') worst = Math.min(worst, ratio);
    rows.push([
      LABEL[target],
      bps.toFixed(1),
      tps.toFixed(0),
      target === 'fetch' ? '1.00' : ratio.toFixed(2),
      `${mib(med((m) => m.result.rssPeak))} MiB`,
      mib(med((m) => m.result.rssStart)),
      ...[0, 1, 2, 3].map((q) => mib(med((m) => m.result.rssQuarters[q] ?? NaN))),
      target === 'fetch' ? '-' : (med((m) => m.result.writeMs) / 1000).toFixed(1),
      (med((m) => m.result.ms) / 1000).toFixed(1),
      med((m) => m.result.requests).toFixed(0),
    ]);
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  console.log('');
  console.log(
    `medians of ${RUNS} run(s); ratio = tx/s ÷ fetch-only tx/s of the same run; RSS in MiB; ` +
      `write s = time inside writeBlocks (overlaps fetching); total s = indexer.run()`,
  );
  console.log(line(header));
  console.log(line(header.map((_, i) => '-'.repeat(widths[i] ?? 0))));
  for (const r of rows) console.log(line(r));
  if (Number.isFinite(worst)) console.log(`\nworst store ratio ${worst.toFixed(2)} (target ≥ 0.80) ${worst >= 0.8 ? 'OK' : 'BELOW TARGET'}`);
} catch (e) {
  failed = true;
  console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
} finally {
  for (const c of children) c.kill('SIGKILL');
  for (const schema of schemas) await dropSchema(schema).catch((e: unknown) => console.error(`could not drop schema ${schema}: ${String(e)}`));
  for (const f of files) for (const x of [f, `${f}-wal`, `${f}-shm`]) rmSync(x, { force: true });
  await anvil?.stop();
}
process.exitCode = failed ? 1 : 0;
