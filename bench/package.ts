/**
 * npm run bench:package — the installed package's figures: tarball and unpacked size, install
 * time into a fresh project, and `scoutkit serve --db memory:fixture` run by plain node from
 * that install: time to `listening` and to the first answer, RSS idle and under load
 * (autocannon, 10 connections, BENCH_SECONDS per path, the `npm run bench` paths plus
 * /api/v2/blocks). The same server run from the TypeScript sources through tsx is measured in
 * the same run as the baseline, and the package serving the fixture chain seeded into SQLite
 * (the data on disk, as a real deployment has it) shows the server's own footprint.
 *
 *   BENCH_PACKAGE_DIR=<dir>   reuse a project that already installed the tarball (skips pack + install)
 *   BENCH_INSTALL=reuse       install without compiling sqlite3 (see installTarball); default: build
 *   BENCH_SECONDS=10          load per path
 *   BENCH_IDLE_SECONDS=30     how long the server sits idle before "settled" readings (V8 gives
 *                             memory back to the system after a few idle seconds)
 */
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { buildFixtureChain } from '../fixture/index.ts';
import { cleanEnv, installTarball, packScoutkit, repoRoot, run } from '../test/support/package.ts';

interface AutocannonResult {
  readonly requests: { readonly average: number };
  readonly non2xx: number;
  readonly errors: number;
}
type Autocannon = (options: { url: string; connections: number; duration: number; headers?: Record<string, string> }) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 30);
const INSTALL = process.env.BENCH_INSTALL === 'reuse' ? 'reuse' : 'build';
const KEY = 'bench-package-key';
const { facts } = buildFixtureChain();
const PATHS = ['/api/v2/blocks', '/api/v2/transactions', `/api/v2/transactions/${facts.transactions.eip1559}`];

const mb = (kb: number): string => `${(kb / 1024).toFixed(0)} MiB`;

async function rssKb(pid: number): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile('ps', ['-o', 'rss=', '-p', String(pid)], (error, stdout) => (error ? reject(error) : resolve(Number(stdout.trim()))));
  });
}

let project = process.env.BENCH_PACKAGE_DIR;
if (project === undefined) {
  const work = await mkdtemp(join(tmpdir(), 'scoutkit-bench-package-'));
  const packed = await packScoutkit(work);
  console.log(`tarball ${(packed.size / 1e3).toFixed(0)} kB, unpacked ${(packed.unpackedSize / 1e6).toFixed(2)} MB, ${packed.files.length} files (${packed.buildMs === null ? 'dist/ current' : `build ${(packed.buildMs / 1000).toFixed(1)} s`})`);
  project = join(work, 'consumer');
  const installed = await installTarball(project, packed.tarball, INSTALL);
  console.log(`install into a fresh project (sqlite3: ${INSTALL}): ${(installed.ms / 1000).toFixed(1)} s (${project})`);
}
const keysFile = join(project, 'bench-keys.json');
await writeFile(keysFile, JSON.stringify({ keys: [{ key: KEY, plan: { requestsPerSecond: 1e9, credits: 1e12, creditPeriod: 'month' } }] }));

interface Target {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
}
// the fixture chain, in memory (as `npm run bench` serves it) and seeded into SQLite (data on disk)
const bin = join(project, 'node_modules', '.bin', 'scoutkit');
const sqliteFile = join(project, 'bench-fixture.sqlite');
await run(bin, ['seed', '--db', `sqlite:${sqliteFile}`], project);
const serveArgs = (db: string) => ['serve', '--db', db, '--port', '0', '--keys', keysFile];
const targets: Target[] = [
  { name: 'package, memory:fixture', command: bin, args: serveArgs('memory:fixture'), cwd: project },
  { name: 'package, sqlite (seeded)', command: bin, args: serveArgs(`sqlite:${sqliteFile}`), cwd: project },
  { name: 'sources (tsx), memory:fixture', command: process.execPath, args: ['--import', 'tsx', join(repoRoot, 'bin', 'scoutkit.ts'), ...serveArgs('memory:fixture')], cwd: repoRoot },
];

async function measure(target: Target): Promise<Record<string, string>> {
  const started = performance.now();
  const child: ChildProcess = spawn(target.command, [...target.args], { cwd: target.cwd, env: cleanEnv(), stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.includes('"listening"')) resolve(String((JSON.parse(line) as { url: string }).url));
    });
    child.once('exit', (code) => reject(new Error(`${target.name}: exited with ${code}`)));
  });
  const listening = performance.now() - started;
  const first = await fetch(`${url}${PATHS[0]}`, { headers: { authorization: `Bearer ${KEY}` } });
  if (first.status !== 200) throw new Error(`${target.name}: ${first.status}`);
  await first.arrayBuffer();
  const firstAnswer = performance.now() - started;
  const sleep = (s: number) => new Promise((r) => setTimeout(r, s * 1000));
  await sleep(2);
  const started2s = await rssKb(child.pid!);
  await sleep(IDLE_SECONDS - 2);
  const idle = await rssKb(child.pid!);

  let peak = 0;
  const sampler = setInterval(() => {
    void rssKb(child.pid!).then((kb) => (peak = Math.max(peak, kb)), () => {});
  }, 250);
  const rates: string[] = [];
  for (const path of PATHS) {
    const r = await autocannon({ url: `${url}${path}`, connections: 10, duration: SECONDS, headers: { authorization: `Bearer ${KEY}` } });
    if (r.non2xx > 0 || r.errors > 0) throw new Error(`${target.name} ${path}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    rates.push(r.requests.average.toFixed(0));
  }
  clearInterval(sampler);
  const after = await rssKb(child.pid!);
  await sleep(IDLE_SECONDS);
  const settled = await rssKb(child.pid!);
  child.kill('SIGTERM');
  await once(child, 'exit');
  return {
    target: target.name,
    listening: `${listening.toFixed(0)} ms`,
    'first answer': `${firstAnswer.toFixed(0)} ms`,
    'RSS 2 s after': mb(started2s),
    [`RSS idle ${IDLE_SECONDS} s`]: mb(idle),
    'RSS peak under load': mb(peak),
    'RSS end of load': mb(after),
    [`RSS ${IDLE_SECONDS} s after load`]: mb(settled),
    'req/s (blocks, txs, tx)': rates.join(' / '),
  };
}

const rows = [];
for (const target of targets) rows.push(await measure(target));
console.table(rows);
