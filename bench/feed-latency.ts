/**
 * Cross-connection latency, Postgres: from a write's commit in one store object (as `scoutkit
 * index` would) to a fresh answer from an explorer over another store object (as `scoutkit
 * serve`), before (the 100 ms version poll only) and after (the change feed's NOTIFY).
 *   DATABASE_URL=postgres://… npx tsx bench/feed-latency.ts
 */
import { openSqlStore } from '../adapters/sql/index.ts';
import { buildFixtureChain } from '../fixture/index.ts';
import { createExplorer } from '../lib/index.ts';

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const searchPath = `feedbench_${process.pid}`;
const chain = buildFixtureChain();
const writer = await openSqlStore(url, { searchPath });
const reader = await openSqlStore(url, { searchPath });

async function run(withFeed: boolean, start: number, rounds: number): Promise<number[]> {
  const ex = createExplorer({ chains: { '1': withFeed ? { store: reader, feed: reader.feed } : { store: reader } } });
  const head = async (): Promise<number> => ((await ex.handle({ path: '/api/v2/blocks', query: { items_count: '1' } })).body as { items: { height: number }[] }).items[0]?.height ?? -1;
  await head();
  await new Promise((r) => setTimeout(r, 300));
  const out: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const n = start + i;
    await writer.writeBlocks(chain.bundles.slice(n, n + 1));
    const t0 = performance.now();
    while ((await head()) < n) await new Promise((r) => setImmediate(r));
    out.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 37)); // off the poll's phase
  }
  return out;
}
const stat = (xs: number[]): string => {
  const s = [...xs].sort((a, b) => a - b);
  return `p50 ${s[Math.floor(s.length / 2)]?.toFixed(1)} ms, max ${s[s.length - 1]?.toFixed(1)} ms (n=${s.length})`;
};
await writer.writeBlocks(chain.bundles.slice(0, 1));
const before = await run(false, 1, 20);
const after = await run(true, 21, 20);
console.log(`poll only (100 ms): ${stat(before)}`);
console.log(`change feed (NOTIFY): ${stat(after)}`);
await writer.knex.raw(`drop schema if exists "${searchPath}" cascade`);
await reader.close();
await writer.close();
process.exit(0);
