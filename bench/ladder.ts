/**
 * npx tsx bench/ladder.ts — indexing throughput on each rung of the tracing ladder.
 *
 * 1. anvil, filled once with BENCH_TXS mixed transactions (demo/fill.ts; default 2,000, 20 a
 *    block), indexed from block 0 to the head into the memory store on each rung anvil serves
 *    (block, transaction, parity — forced with `traceMode`), and on the block rung without
 *    state diffs (balances and proxy slots read instead). Rounds alternate the rungs
 *    (BENCH_RUNS, default 3); medians of tx/s, and each rung's ratio to the block rung.
 * 2. Hardhat 2's node (the root's hardhat), which serves only opcode steps: the ladder scenario
 *    of test/indexer, indexed on the structlog rung and, on anvil, on the block rung — tx/s of
 *    each and the process's peak RSS while the struct-log rung traced (sampled every 5 ms),
 *    against the RSS before it began; and the largest opcode trace, in bytes.
 *
 * A report: exits 0 whatever the figures.
 */
import { createIndexer } from '../lib/indexer/index.ts';
import type { TraceMode } from '../lib/chain-source.ts';
import { createRpcChainSource } from '../adapters/rpc/index.ts';
import type { RpcChainSourceOptions } from '../adapters/rpc/index.ts';
import { createMemoryStore } from '../adapters/memory/index.ts';
import { startAnvil } from '../demo/anvil.ts';
import { fillChain } from '../demo/fill.ts';
import { startHardhatNode } from '../test/support/hardhatNode.ts';
import { runLadderScenario } from '../test/indexer/ladderScenario.ts';

const TXS = Number(process.env.BENCH_TXS ?? 2000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 === 1 ? (s[(s.length - 1) / 2] as number) : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
};

interface Run {
  readonly txPerSecond: number;
  readonly transactions: number;
  readonly peakRssMb: number;
  readonly baseRssMb: number;
}

async function indexOnce(url: string, head: number, options: RpcChainSourceOptions): Promise<Run> {
  global.gc?.();
  const baseRss = process.memoryUsage().rss;
  let peak = baseRss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const started = performance.now();
  const summary = await createIndexer({ source: createRpcChainSource(url, options), sink: createMemoryStore(), pollIntervalMs: 100, log: () => undefined }).run({ to: head });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  return { txPerSecond: summary.transactions / seconds, transactions: summary.transactions, peakRssMb: peak / 2 ** 20, baseRssMb: baseRss / 2 ** 20 };
}

const VARIANTS: readonly { readonly name: string; readonly options: RpcChainSourceOptions }[] = [
  { name: 'block', options: { traceMode: 'block' } },
  { name: 'transaction', options: { traceMode: 'transaction' } },
  { name: 'parity', options: { traceMode: 'parity' } },
  { name: 'block, no state diffs', options: { traceMode: 'block', capabilities: { prestate: false } } },
];

async function anvilRungs(): Promise<void> {
  const anvil = await startAnvil();
  try {
    const fill = await fillChain(anvil.url, { transactions: TXS, perBlock: 20 });
    const head = Number(fill.toBlock);
    console.log(`anvil: ${fill.transactions} transactions in blocks ${fill.fromBlock}–${fill.toBlock}; ${RUNS} round(s), rungs alternating`);
    const rates = new Map<string, number[]>(VARIANTS.map((v) => [v.name, []]));
    for (let round = 0; round < RUNS; round++) {
      for (const v of VARIANTS) rates.get(v.name)?.push((await indexOnce(anvil.url, head, v.options)).txPerSecond);
    }
    const block = median(rates.get('block') ?? []);
    for (const v of VARIANTS) {
      const r = rates.get(v.name) ?? [];
      console.log(`  ${v.name.padEnd(24)} ${median(r).toFixed(0).padStart(6)} tx/s  (${r.map((x) => x.toFixed(0)).join(', ')})  ÷ block ${(median(r) / block).toFixed(2)}`);
    }
  } finally {
    await anvil.stop();
  }
}

async function structLogRung(): Promise<void> {
  const anvil = await startAnvil();
  const node = await startHardhatNode(2);
  if (node === null) throw new Error("Hardhat 2's node did not start");
  try {
    const [onAnvil, onHardhat] = [await runLadderScenario(anvil.url), await runLadderScenario(node.url)];
    const mode: TraceMode = 'structlog';
    const rows: [string, Run[]][] = [
      ['anvil, block rung', []],
      ['Hardhat 2, structlog rung', []],
    ];
    for (let round = 0; round < RUNS; round++) {
      rows[0]?.[1].push(await indexOnce(anvil.url, onAnvil.head, { traceMode: 'block' }));
      rows[1]?.[1].push(await indexOnce(node.url, onHardhat.head, { traceMode: mode }));
    }
    console.log(`the ladder scenario (${onAnvil.transactions.length} transactions), ${RUNS} round(s):`);
    for (const [name, runs] of rows) {
      const peak = median(runs.map((r) => r.peakRssMb - r.baseRssMb));
      console.log(`  ${name.padEnd(26)} ${median(runs.map((r) => r.txPerSecond)).toFixed(0).padStart(6)} tx/s  peak RSS +${peak.toFixed(0)} MB over ${median(runs.map((r) => r.baseRssMb)).toFixed(0)} MB`);
    }
    let largest = 0;
    for (const hash of onHardhat.transactions) {
      const res = await fetch(node.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'debug_traceTransaction', params: [hash, { disableStorage: true }] }) });
      largest = Math.max(largest, (await res.arrayBuffer()).byteLength);
    }
    console.log(`  largest opcode trace in the scenario: ${largest} bytes`);
  } finally {
    await node.stop();
    await anvil.stop();
  }
}

await anvilRungs();
await structLogRung();
