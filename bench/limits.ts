/**
 * npm run bench:limits — issue 14's scenario at full size, plus the measurement behind the
 * limiter's wait budget (`limiterTimeoutMs`).
 *
 * 1. Scenario: two `scoutkit serve --redis` processes on the real Redis (REDIS_URL, default
 *    127.0.0.1:6379; a unique key prefix), one key allowed 20 requests per second, 200
 *    concurrent clients for 4 s spread over both hosts, while CPU burners keep both cores busy;
 *    BENCH_RUNS runs (default 10). Per run: answers by status, 200s with -1 headers (must be 0),
 *    admitted per window (grouped by the window end each answer reports), p50/p99 latency.
 * 2. Budget: the same load on two in-process hosts whose limiter store is timed: p50, p99,
 *    p99.9 and max of the wait for the two limiter calls of a request, on a busy machine.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createServer, DEFAULT_LIMITER_TIMEOUT_MS, redisLimiterStore } from '../host/index.ts';
import type { LimiterStore, Plan } from '../host/index.ts';
import { createMemoryStore } from '../adapters/memory/index.ts';
import { loadFixtureChain } from '../fixture/index.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 200);
const BURNERS = Number(process.env.BENCH_BURNERS ?? 2);
const PLAN = { requests: 20, windowSeconds: 1, credits: 100_000_000, creditPeriod: 'month' } as const;
const KEY = 'bench-limits-key';
const PATH = '/1/api/v2/blocks/1';

interface Answer {
  readonly status: number;
  readonly limit: number;
  readonly remaining: number;
  readonly reset: number;
  readonly ms: number;
  /** the window end the answer reports (midpoint of send and receive plus reset) */
  readonly windowEnd: number;
}

/** `clients` callers looping for `seconds` over the hosts. */
async function load(urls: readonly string[], clients: number, seconds: number): Promise<Answer[]> {
  const answers: Answer[] = [];
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_v, c) => {
      for (let i = 0; Date.now() < until; i++) {
        const sent = performance.now();
        const sentAt = Date.now();
        try {
          const res = await fetch(`${urls[(c + i) % urls.length]}${PATH}?apikey=${KEY}`);
          await res.arrayBuffer();
          const n = (h: string) => Number(res.headers.get(h) ?? NaN);
          const reset = n('x-ratelimit-reset');
          answers.push({
            status: res.status,
            limit: n('x-ratelimit-limit'),
            remaining: n('x-ratelimit-remaining'),
            reset,
            ms: performance.now() - sent,
            windowEnd: (sentAt + Date.now()) / 2 + reset,
          });
        } catch {
          answers.push({ status: 0, limit: NaN, remaining: NaN, reset: NaN, ms: performance.now() - sent, windowEnd: NaN });
        }
      }
    }),
  );
  return answers;
}

function perWindow(answers: readonly Answer[], windowMs: number): number[] {
  const ends = answers.filter((a) => a.status === 200).map((a) => a.windowEnd).sort((a, b) => a - b);
  const groups: number[][] = [];
  for (const end of ends) {
    const current = groups.at(-1);
    if (current && end - (current[0] ?? 0) < windowMs / 2) current.push(end);
    else groups.push([end]);
  }
  return groups.map((g) => g.length);
}

const pct = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const ms = (v: number) => `${v.toFixed(1)} ms`;

function burners(count: number): ChildProcess[] {
  return Array.from({ length: count }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
}

/** `scoutkit serve` in a child process; resolves with its URL once it listens. */
async function serveProcess(args: readonly string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'host/cli.ts', 'serve', ...args, '--log-format', 'json'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  for await (const line of lines) {
    const parsed = JSON.parse(line) as { msg?: string; url?: string };
    if (parsed.msg === 'listening' && parsed.url) {
      lines.removeAllListeners();
      child.stdout?.resume();
      return { url: parsed.url, child };
    }
  }
  throw new Error('scoutkit serve exited before listening');
}

// 1. the scenario, over two `scoutkit serve` processes
const dir = await mkdtemp(join(tmpdir(), 'scoutkit-bench-limits-'));
const keysFile = join(dir, 'keys.json');
await writeFile(keysFile, JSON.stringify({ plans: { bench: PLAN }, keys: [{ key: KEY, plan: 'bench' }] }));
const prefix = `scoutkit-bench-${process.pid}-${Date.now()}`;
const served = await Promise.all(
  [0, 1].map(() => serveProcess(['--db', 'memory:fixture', '--port', '0', '--keys', keysFile, '--redis', REDIS_URL, '--redis-prefix', prefix])),
);
const busy = burners(BURNERS);
console.log(`bench:limits — ${RUNS} runs: 2 scoutkit serve hosts on ${REDIS_URL}, ${CLIENTS} clients × ${SECONDS} s on one key (${PLAN.requests} per ${PLAN.windowSeconds} s), ${BURNERS} CPU burners`);
let worst = 0;
let unlimitedTotal = 0;
for (let run = 1; run <= RUNS; run++) {
  const answers = await load(
    served.map((s) => s.url),
    CLIENTS,
    SECONDS,
  );
  const count = (s: number) => answers.filter((a) => a.status === s).length;
  const unlimited = answers.filter((a) => a.status === 200 && !(a.limit > 0 && a.remaining >= 0 && a.reset >= 0)).length;
  const windows = perWindow(answers, PLAN.windowSeconds * 1000);
  worst = Math.max(worst, ...windows);
  unlimitedTotal += unlimited;
  const latencies = answers.map((a) => a.ms);
  console.log(
    `run ${String(run).padStart(2)}: ${answers.length} answers — 200 ${count(200)}, 429 ${count(429)}, 503 ${count(503)}, other ${answers.length - count(200) - count(429) - count(503)}; ` +
      `200 with -1 headers ${unlimited}; admitted per window max ${Math.max(...windows)} over ${windows.length} windows; ` +
      `latency p50 ${ms(pct(latencies, 50))}, p99 ${ms(pct(latencies, 99))}`,
  );
}
console.log(`scenario: max admitted per window ${worst} (plan ${PLAN.requests}); 200s with -1 headers ${unlimitedTotal}`);
for (const s of served) s.child.kill('SIGTERM');

// 2. the wait budget: the same load on two in-process hosts with a timed limiter store
const store = createMemoryStore();
await loadFixtureChain(store);
const waits: number[] = [];
const timed = (inner: LimiterStore): LimiterStore => ({
  ...inner,
  consume: (request) => time(() => inner.consume(request)),
  peek: (request) => time(() => inner.peek(request)),
});
async function time<T>(call: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await call();
  } finally {
    waits.push(performance.now() - started);
  }
}
const plan: Plan = { name: 'bench', ...PLAN };
const hosts = [0, 1].map(() =>
  createServer({
    chains: { '1': store },
    keys: [{ key: KEY, plan }],
    limiter: timed(redisLimiterStore({ url: REDIS_URL, keyPrefix: `${prefix}-budget` })),
    log: false,
  }),
);
const urls = await Promise.all(hosts.map(async (h) => (await h.listen(0)).url));
const budgetRuns = Math.max(1, Math.ceil(RUNS / 3));
const answers: Answer[] = [];
for (let run = 0; run < budgetRuns; run++) answers.push(...(await load(urls, CLIENTS, SECONDS)));
console.log(
  `budget: ${waits.length} limiter calls (2 per request) under ${CLIENTS} clients in the hosts' own process and ${BURNERS} burners — ` +
    `wait p50 ${ms(pct(waits, 50))}, p99 ${ms(pct(waits, 99))}, p99.9 ${ms(pct(waits, 99.9))}, max ${ms(Math.max(...waits))}; ` +
    `503 (over the ${DEFAULT_LIMITER_TIMEOUT_MS} ms default budget) ${answers.filter((a) => a.status === 503).length} of ${answers.length}`,
);
for (const b of busy) b.kill('SIGKILL');
await Promise.all(hosts.map((h) => h.close()));
await rm(dir, { recursive: true, force: true });
