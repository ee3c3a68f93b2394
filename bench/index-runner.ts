/**
 * One measured target of `npm run bench:index` (bench/index.ts), in its own process so that
 * RSS is per target. Indexes blocks [from, to] of the node at `rpc` with the real indexer and
 * the real RPC ChainSource into one target:
 *
 *   fetch     a sink that discards every write (but answers getIndexedHead and the chain
 *             identity consistently): exactly what the indexer fetches, no store
 *   memory    adapters/memory
 *   sqlite    sqlite:<path> through adapters/sql (a file, WAL)
 *   postgres  postgres://… through adapters/sql, in schema `schema` (created when missing)
 *
 * Prints one JSON line (RunnerResult) on stdout. Not meant to be run by hand:
 *
 *   node --import tsx bench/index-runner.ts '{"target":"fetch","rpc":"http://…","from":0,"to":130}'
 */
import type { BlockBundle, Hash } from '../lib/domain/records.ts';
import type { DataSink } from '../lib/ports.ts';
import type { ChainIdentity } from '../lib/ports.ts';
import { createIndexer } from '../lib/indexer/index.ts';
import { createRpcChainSource } from '../adapters/rpc/index.ts';

export type Target = 'fetch' | 'memory' | 'sqlite' | 'postgres';

export interface RunnerConfig {
  readonly target: Target;
  readonly rpc: string;
  readonly from: number;
  readonly to: number;
  /** sqlite: the file; postgres: the server URL */
  readonly url?: string;
  /** postgres: the schema */
  readonly schema?: string;
  readonly concurrency?: number;
  readonly batchSize?: number;
}

export interface RunnerResult {
  readonly target: Target;
  readonly blocks: number;
  readonly transactions: number;
  /** wall time of indexer.run(), ms (store open and migrations excluded) */
  readonly ms: number;
  /** time spent inside sink.writeBlocks, ms */
  readonly writeMs: number;
  /** JSON-RPC requests sent during the run */
  readonly requests: number;
  /** bytes */
  readonly rssStart: number;
  readonly rssPeak: number;
  /** RSS when 25, 50, 75, 100 % of the blocks were written */
  readonly rssQuarters: readonly number[];
}

function parseConfig(text: string | undefined): RunnerConfig {
  if (text === undefined) throw new Error('usage: index-runner.ts <json config>');
  const v: unknown = JSON.parse(text);
  if (typeof v !== 'object' || v === null) throw new Error('config: not an object');
  const c = v as Partial<Record<keyof RunnerConfig, unknown>>;
  const targets: readonly string[] = ['fetch', 'memory', 'sqlite', 'postgres'];
  if (typeof c.target !== 'string' || !targets.includes(c.target)) throw new Error(`config: bad target ${String(c.target)}`);
  if (typeof c.rpc !== 'string' || typeof c.from !== 'number' || typeof c.to !== 'number') throw new Error('config: rpc, from, to required');
  const optNum = (x: unknown): number | undefined => (typeof x === 'number' ? x : undefined);
  const optStr = (x: unknown): string | undefined => (typeof x === 'string' ? x : undefined);
  const concurrency = optNum(c.concurrency);
  const batchSize = optNum(c.batchSize);
  const url = optStr(c.url);
  const schema = optStr(c.schema);
  return {
    target: c.target as Target,
    rpc: c.rpc,
    from: c.from,
    to: c.to,
    ...(url !== undefined ? { url } : {}),
    ...(schema !== undefined ? { schema } : {}),
    ...(concurrency !== undefined ? { concurrency } : {}),
    ...(batchSize !== undefined ? { batchSize } : {}),
  };
}

/** Discards writes; remembers only the head and the chain identity, so the indexer behaves as with a real store. */
function nullSink(): DataSink {
  let head: { number: number; hash: Hash } | null = null;
  let identity: ChainIdentity | null = null;
  return {
    async writeBlocks(bundles: readonly BlockBundle[]) {
      const last = bundles[bundles.length - 1];
      if (last !== undefined) head = { number: last.block.number, hash: last.block.hash };
    },
    async writePendingTransactions() {},
    async rollbackAbove(height: number) {
      if (head !== null && head.number > height) head = null;
    },
    async getIndexedHead() {
      return head;
    },
    async getChainIdentity() {
      return identity;
    },
    async setChainIdentity(id: ChainIdentity) {
      identity = id;
    },
  };
}

interface OpenTarget {
  readonly sink: DataSink;
  close(): Promise<void>;
}

async function openTarget(config: RunnerConfig): Promise<OpenTarget> {
  switch (config.target) {
    case 'fetch':
      return { sink: nullSink(), close: async () => {} };
    case 'memory': {
      const { createMemoryStore } = await import('../adapters/memory/index.ts');
      return { sink: createMemoryStore(), close: async () => {} };
    }
    case 'sqlite':
    case 'postgres': {
      if (config.url === undefined) throw new Error(`${config.target}: url required`);
      const { openSqlStore } = await import('../adapters/sql/index.ts');
      const url = config.target === 'sqlite' ? `sqlite:${config.url}` : config.url;
      const store = await openSqlStore(url, config.schema !== undefined ? { searchPath: config.schema } : {});
      return { sink: store, close: () => store.close() };
    }
  }
}

/** The sink, timing writeBlocks. */
function timed(sink: DataSink): { sink: DataSink; writeMs: () => number } {
  let ms = 0;
  const wrapped = Object.create(sink) as DataSink;
  wrapped.writeBlocks = async (bundles) => {
    const t = performance.now();
    try {
      await sink.writeBlocks(bundles);
    } finally {
      ms += performance.now() - t;
    }
  };
  return { sink: wrapped, writeMs: () => ms };
}

async function main(): Promise<void> {
  const config = parseConfig(process.argv[2]);
  const target = await openTarget(config);
  try {
    const { sink, writeMs } = timed(target.sink);
    const source = createRpcChainSource(config.rpc);
    const total = config.to - config.from + 1;
    const quarters = [0.25, 0.5, 0.75, 1].map((q) => config.from + Math.ceil(total * q) - 1);
    const rssQuarters: number[] = [];
    global.gc?.();
    const rssStart = process.memoryUsage().rss;
    let rssPeak = rssStart;
    const sample = (): number => {
      const rss = process.memoryUsage().rss;
      if (rss > rssPeak) rssPeak = rss;
      return rss;
    };
    const sampler = setInterval(sample, 20);
    const indexer = createIndexer({
      source,
      sink,
      ...(config.concurrency !== undefined ? { concurrency: config.concurrency } : {}),
      ...(config.batchSize !== undefined ? { batchSize: config.batchSize } : {}),
      onEvent: (e) => {
        if (e.type !== 'progress') return;
        const rss = sample();
        while (rssQuarters.length < quarters.length && e.indexedHead >= (quarters[rssQuarters.length] ?? Infinity)) rssQuarters.push(rss);
      },
    });
    const requestsBefore = source.requestCount();
    const t0 = performance.now();
    const summary = await indexer.run({ from: config.from, to: config.to });
    const ms = performance.now() - t0;
    clearInterval(sampler);
    sample();
    if (summary.indexedHead !== config.to) throw new Error(`indexed up to ${summary.indexedHead}, expected ${config.to}`);
    const result: RunnerResult = {
      target: config.target,
      blocks: summary.blocks,
      transactions: summary.transactions,
      ms,
      writeMs: writeMs(),
      requests: source.requestCount() - requestsBefore,
      rssStart,
      rssPeak,
      rssQuarters,
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await target.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`index-runner: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
