/**
 * npm run bench:verify — contract verification off the request path (issue 28, item 5): what a
 * compile running in the verifier's worker costs the other requests, and how long a verification
 * takes from submission to its final status.
 *
 * One server (createServer, memory store with the verifiable contracts of test/support, a solc-js
 * verifier with BENCH_POOL workers, default 1; the response cache off so every request reads the
 * store and renders). BENCH_CALLERS (default 4) callers ask three API v2 pages for BENCH_SECONDS
 * (default 5) seconds, first with nothing else running (the baseline), then while submissions
 * follow one another so that a compile is always running (each a standard-JSON input of the token
 * with another optimizer `runs`: a full compile, which then does not match); rounds alternate
 * (BENCH_ROUNDS, default 3). Printed: p50/p99 of the pages in each phase, their ratio (median of
 * the rounds' own), and submission → final status p50/p99 for every job (the first one loads
 * solc-js into the worker: shown apart). No native solc on this machine: solc-js only.
 */
import { rm } from 'node:fs/promises';
import { createMemoryContractStore, createMemoryStore } from '../adapters/memory/index.ts';
import { createSolcVerifier } from '../adapters/solc/index.ts';
import { createServer } from '../host/index.ts';
import { createExplorer } from '../lib/index.ts';
import { compilerDir, compilerVersion, COUNTER_ADDRESS, TOKEN_ADDRESS, TOKEN_INPUT, tokenArgs, writeVerifiableChain } from '../test/support/verification.ts';

const env = (k: string, d: number): number => (process.env[k] === undefined || process.env[k] === '' ? d : Number(process.env[k]));
const SECONDS = env('BENCH_SECONDS', 5);
const CALLERS = env('BENCH_CALLERS', 4);
const ROUNDS = env('BENCH_ROUNDS', 3);
const POOL = env('BENCH_POOL', 1);

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const percentile = (xs: readonly number[], p: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

const dir = await compilerDir(['solc']);
const verifier = createSolcVerifier({ compilers: { dir, download: false }, size: POOL });
const store = createMemoryStore();
await writeVerifiableChain(store);
const chains = { '1': { store, contracts: createMemoryContractStore(), verifier } };
const plan = { name: 'bench', requestsPerSecond: 1_000_000, credits: 1_000_000_000, creditPeriod: 'day' as const };
const server = createServer({
  chains,
  explorer: createExplorer({ chains, cache: { maxEntries: 0 } }),
  anonymousPlan: plan,
  log: false,
  docs: false,
  metrics: false,
});
const { url } = await server.listen(0);
const VERSION = compilerVersion();
const PAGES = ['/api/v2/blocks', `/api/v2/addresses/${TOKEN_ADDRESS}`, `/api/v2/smart-contracts/${COUNTER_ADDRESS}`];

/** the pages, asked by CALLERS callers until `until` (ms): each request's time */
async function ask(until: number): Promise<number[]> {
  const times: number[] = [];
  let n = 0;
  const caller = async (): Promise<void> => {
    while (performance.now() < until) {
      const path = PAGES[n++ % PAGES.length] as string;
      const t0 = performance.now();
      const res = await fetch(`${url}${path}`);
      await res.arrayBuffer();
      times.push(performance.now() - t0);
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: CALLERS }, caller));
  return times;
}

const form = (fields: Record<string, string>): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
const api = async (fields: Record<string, string>): Promise<{ status: string; result: string }> => (await (await fetch(`${url}/api`, form(fields))).json()) as { status: string; result: string };

let runs = 1000;
/** one submission to its final status (ms): a full compile of the token with another `runs` */
async function verifyOnce(): Promise<number> {
  const input = JSON.parse(TOKEN_INPUT) as { settings: { optimizer: { runs: number } } };
  input.settings.optimizer.runs = runs++;
  const t0 = performance.now();
  const submitted = await api({ module: 'contract', action: 'verifysourcecode', contractaddress: TOKEN_ADDRESS, sourceCode: JSON.stringify(input), codeformat: 'solidity-standard-json-input', contractname: 'src/Token.sol:Token', compilerversion: VERSION, constructorArguements: tokenArgs().slice(2) });
  if (submitted.status !== '1') throw new Error(`submission refused: ${submitted.result}`);
  for (;;) {
    const s = await api({ module: 'contract', action: 'checkverifystatus', guid: submitted.result });
    if (s.result !== 'Pending in queue') return performance.now() - t0;
  }
}

const rows: { base: number[]; busy: number[]; ratio: number }[] = [];
const jobs: number[] = [];
try {
  // the first job loads solc-js into the worker
  const cold = await verifyOnce();
  await ask(performance.now() + 1000);
  for (let r = 0; r < ROUNDS; r++) {
    const base = await ask(performance.now() + SECONDS * 1000);
    const until = performance.now() + SECONDS * 1000;
    const compiling = (async () => {
      while (performance.now() < until) jobs.push(await verifyOnce());
    })();
    const busy = await ask(until);
    await compiling;
    rows.push({ base, busy, ratio: percentile(busy, 99) / percentile(base, 99) });
  }
  const fmt = (xs: readonly number[]): string => `${percentile(xs, 50).toFixed(2)} / ${percentile(xs, 99).toFixed(2)}`;
  console.log(`bench:verify: ${CALLERS} callers on ${PAGES.length} API v2 pages (cache off), ${SECONDS} s a phase, ${ROUNDS} rounds, ${POOL} compile worker(s), solc-js ${VERSION}`);
  console.log('| round | pages p50 / p99 (ms), nothing else | while compiling | p99 ratio | requests (base / busy) |');
  console.log('|---|---|---|---|---|');
  rows.forEach((row, i) => console.log(`| ${i + 1} | ${fmt(row.base)} | ${fmt(row.busy)} | ${row.ratio.toFixed(2)} | ${row.base.length} / ${row.busy.length} |`));
  console.log(`p99 ratio (median of the rounds): ${median(rows.map((r) => r.ratio)).toFixed(2)}`);
  console.log(`verification, submission → final status: first (solc-js loaded into the worker) ${cold.toFixed(0)} ms; then ${jobs.length} jobs p50 ${percentile(jobs, 50).toFixed(0)} ms, p99 ${percentile(jobs, 99).toFixed(0)} ms`);
} finally {
  await server.close();
  await verifier.close();
  await rm(dir, { recursive: true, force: true });
}
