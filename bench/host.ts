/**
 * npm run bench — requests/s through the full host (identity, rate limit, router, lib, memory
 * adapter with the fixture chain) next to a bare Koa + @koa/router server returning the same
 * bytes, in the same run. Runs alternate; medians of RUNS × DURATION s. Target ratio ≥ 0.7.
 * A third column, lib alone in a bare Koa, separates the host's own cost from lib's.
 */
import { once } from 'node:events';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import { toJson } from '../lib/index.ts';
import { createServer } from '../host/index.ts';
import { createMemoryStore } from '../adapters/memory/index.ts';
import { loadFixtureChain } from '../fixture/index.ts';

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

const store = createMemoryStore();
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
// lib alone in a bare Koa: what the host adds on top of lib's own work (identity, limits, routing)
const libOnly = new Koa();
libOnly.use(async (ctx) => {
  const response = await host.explorer.handle({ path: ctx.path });
  ctx.status = response.status;
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = toJson(response.body);
});
const libServer: Server = libOnly.listen(0, '127.0.0.1');
await once(libServer, 'listening');
const libUrl = `http://127.0.0.1:${(libServer.address() as AddressInfo).port}`;

const bareApp = new Koa();
bareApp.use(bare.routes());
const bareServer: Server = bareApp.listen(0, '127.0.0.1');
await once(bareServer, 'listening');
const bareUrl = `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
async function measure(url: string, duration = DURATION): Promise<number> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration, headers: { 'x-api-key': KEY } });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

console.log(`scoutkit host bench: ${RUNS} runs × ${DURATION} s, ${CONNECTIONS} connections, memory adapter + fixture chain`);
let worst = Infinity;
for (const target of targets) {
  for (const url of [full.url, bareUrl, libUrl]) await measure(`${url}${target.path}`, 1); // warm-up
  const hostRuns: number[] = [];
  const bareRuns: number[] = [];
  const libRuns: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    hostRuns.push(await measure(`${full.url}${target.path}`));
    bareRuns.push(await measure(`${bareUrl}${target.path}`));
    libRuns.push(await measure(`${libUrl}${target.path}`));
  }
  const [h, b, l] = [median(hostRuns), median(bareRuns), median(libRuns)];
  worst = Math.min(worst, h / b);
  const rate = (x: number) => `${x.toFixed(0).padStart(6)} req/s`;
  console.log(
    `${target.name.padEnd(36)} host ${rate(h)} | bare koa, same bytes ${rate(b)} | ratio ${(h / b).toFixed(2)}` +
      `   (lib alone in koa ${rate(l)}: host/lib-alone ${(h / l).toFixed(2)})`,
  );
}
console.log(`worst ratio ${worst.toFixed(2)} (target ≥ 0.70) ${worst >= 0.7 ? 'OK' : 'BELOW TARGET'}`);

await host.close();
bareServer.close();
libServer.close();
