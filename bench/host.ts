/**
 * npm run bench — requests/s through the full host (identity, rate limit, routing, lib, the
 * fixture chain in a memory store and in a SQLite file) next to a bare Koa + @koa/router server
 * returning the same bytes, in the same run. Runs alternate; medians of RUNS × DURATION s.
 * Targets: ratio ≥ 0.7 on memory, ≥ 0.5 on SQLite (issue 13). A third column, lib alone in a
 * bare Koa, separates the host's own cost from lib's. The ratio printed is the median of the
 * runs' own ratios (host and bare measured back to back).
 *
 * Then the out-of-process measurement (bench/oop.ts): autocannon's CLI in its own process against
 * a `scoutkit serve`-equivalent server in another, beside a bare Koa serving the same (and the same
 * precompressed) bytes, with and without `Accept-Encoding: gzip, br`. BENCH_IN_PROCESS=0 skips the
 * in-process part; BENCH_OUT_OF_PROCESS=0 the other.
 *
 * Last, the socket run (bench/socket.ts) in a process of its own: 1,000 connections following
 * new blocks and 100 address topics while blocks are written at 5/s, one slow consumer.
 * BENCH_SOCKET=0 skips it.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Koa from 'koa';
import Router from '@koa/router';
import { toJson } from '../lib/index.ts';
import type { DataSink, VersionedDataSource } from '../lib/index.ts';
import { createServer } from '../host/index.ts';
import { createMemoryStore } from '../adapters/memory/index.ts';
import { openSqlStore } from '../adapters/sql/index.ts';
import { loadFixtureChain } from '../fixture/index.ts';
import { outOfProcess } from './oop.ts';

interface AutocannonResult {
  readonly requests: { readonly average: number };
  readonly non2xx: number;
  readonly errors: number;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
}) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const DURATION = Number(process.env.BENCH_SECONDS ?? 3);
const CONNECTIONS = 10;
const KEY = 'bench-key';

type Store = VersionedDataSource & DataSink & { close?: () => Promise<void> };
const dir = mkdtempSync(join(tmpdir(), 'scoutkit-bench-'));
const stores: { readonly name: string; readonly target: number; readonly open: () => Promise<Store> }[] = [
  { name: 'memory', target: 0.7, open: async () => createMemoryStore() },
  { name: 'sqlite', target: 0.5, open: () => openSqlStore(`sqlite:${join(dir, 'bench.sqlite')}`) },
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
async function measure(url: string, duration = DURATION): Promise<number> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration, headers: { 'x-api-key': KEY } });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}
async function listenKoa(app: Koa): Promise<{ server: Server; url: string }> {
  const server: Server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

console.log(`scoutkit host bench: ${RUNS} runs × ${DURATION} s, ${CONNECTIONS} connections, fixture chain; medians`);
const rate = (x: number) => `${x.toFixed(0).padStart(6)} req/s`;
let failed = false;
for (const spec of process.env.BENCH_IN_PROCESS === '0' ? [] : stores) {
  const store = await spec.open();
  const { facts } = await loadFixtureChain(store);
  const targets = [
    { name: 'list   /api/v2/transactions', path: '/api/v2/transactions' },
    { name: 'detail /api/v2/transactions/{hash}', path: `/api/v2/transactions/${facts.transactions.eip1559}` },
  ];

  // the full host
  const host = createServer({
    chains: { '1': store },
    keys: [{ key: KEY, plan: { name: 'bench', requestsPerSecond: 1e9, credits: 1e12, creditPeriod: 'month' } }],
    log: false,
  });
  const full = await host.listen(0);

  // the bare baseline: same bytes, same content type, no work
  const bare = new Router();
  for (const target of targets) {
    const response = await host.explorer.handle({ path: target.path });
    if (response.status !== 200) throw new Error(`${target.path}: ${response.status}`);
    const bytes = toJson(response.body);
    bare.get(target.path, (ctx) => {
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = bytes;
    });
  }
  const bareApp = new Koa();
  bareApp.use(bare.routes());
  const bareServer = await listenKoa(bareApp);
  // lib alone in a bare Koa: what the host adds on top of lib's own work (identity, limits, routing)
  const libOnly = new Koa();
  libOnly.use(async (ctx) => {
    const response = await host.explorer.handle({ path: ctx.path });
    ctx.status = response.status;
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = toJson(response.body);
  });
  const libServer = await listenKoa(libOnly);

  let worst = Infinity;
  for (const target of targets) {
    for (const url of [full.url, bareServer.url, libServer.url]) await measure(`${url}${target.path}`, 1); // warm-up
    const hostRuns: number[] = [];
    const bareRuns: number[] = [];
    const libRuns: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      hostRuns.push(await measure(`${full.url}${target.path}`));
      bareRuns.push(await measure(`${bareServer.url}${target.path}`));
      libRuns.push(await measure(`${libServer.url}${target.path}`));
    }
    const [h, b, l] = [median(hostRuns), median(bareRuns), median(libRuns)];
    // the ratio of each run (host and bare measured back to back), then their median: steadier
    // than a ratio of medians when the machine's load drifts between runs
    const ratio = median(hostRuns.map((x, i) => x / (bareRuns[i] ?? Infinity)));
    worst = Math.min(worst, ratio);
    console.log(
      `${spec.name.padEnd(7)}${target.name.padEnd(36)} host ${rate(h)} | bare koa, same bytes ${rate(b)} | ratio ${ratio.toFixed(2)}` +
        `   (lib alone in koa ${rate(l)}: host/lib-alone ${(h / l).toFixed(2)})`,
    );
  }
  const ok = worst >= spec.target;
  failed ||= !ok;
  console.log(`${spec.name}: worst ratio ${worst.toFixed(2)} (target ≥ ${spec.target.toFixed(2)}) ${ok ? 'OK' : 'BELOW TARGET'}`);

  await host.close();
  await Promise.all([bareServer.server, libServer.server].map((server) => new Promise((resolve) => server.close(resolve))));
  await store.close?.();
}
rmSync(dir, { recursive: true, force: true });
if (process.env.BENCH_OUT_OF_PROCESS !== '0' && !(await outOfProcess({ runs: RUNS, seconds: DURATION, connections: 16 }))) failed = true;
if (process.env.BENCH_SOCKET !== '0') {
  const child = spawn(process.execPath, ['--import', 'tsx', join(dirname(fileURLToPath(import.meta.url)), 'socket.ts')], { stdio: 'inherit' });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) failed = true;
}
if (failed) process.exitCode = 1;
