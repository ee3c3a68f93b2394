/**
 * The indexer through a sick node: a seeded fault-injecting proxy (test/support/faultproxy.ts)
 * in front of anvil holding the demo scenario. Faults in ~5 % of requests and calls, the chain
 * revealed a block at a time so the indexer follows the tip where a lagging backend bites: the
 * indexer never exits, never sees a reorg that did not happen, and its store equals a clean
 * run's, list by list. And with only token reads faulted, heavily: no failed balanceOf, uri,
 * name, decimals or totalSupply ever becomes data.
 */
import t from 'tap';
import type { Test } from 'tap';
import { createIndexer } from '../../lib/indexer/index.ts';
import type { IndexerEvent, RunSummary } from '../../lib/indexer/index.ts';
import type { DataSink, DataSource } from '../../lib/ports.ts';
import { createRpcChainSource } from '../../adapters/rpc/index.ts';
import type { RpcChainSource } from '../../adapters/rpc/index.ts';
import { startAnvil } from '../../demo/anvil.ts';
import type { Anvil } from '../../demo/anvil.ts';
import { runScenario } from '../../demo/scenario.ts';
import { storeFactories } from '../support/stores.ts';
import type { StoreFactory, TestStore } from '../support/stores.ts';
import { CALL_FAULTS, HTTP_FAULTS, startFaultProxy } from '../support/faultproxy.ts';
import { chainKeys, digest } from '../adapters/sql/digest.ts';
import type { ChainKeys } from '../adapters/sql/digest.ts';
import { recordingSink, rpc } from './helpers.ts';

let anvil: Anvil;
let head: number;

t.before(async () => {
  anvil = await startAnvil();
  await runScenario(anvil.url, { rounds: 3 });
  head = Number(await rpc(anvil.url, 'eth_blockNumber', []));
});
t.teardown(async () => {
  await anvil?.stop();
});

interface Outcome {
  readonly summary: RunSummary;
  readonly events: IndexerEvent[];
  readonly logs: string[];
  readonly source: RpcChainSource;
}

/** index to the head, following (the proxy reveals the chain a block at a time) */
async function indexThrough(url: string, sink: DataSink, retries = 4): Promise<Outcome> {
  const events: IndexerEvent[] = [];
  const logs: string[] = [];
  const source = createRpcChainSource(url, { retry: { retries, baseDelayMs: 20, maxDelayMs: 200 }, log: (l) => logs.push(l) });
  const indexer = createIndexer({
    source,
    sink,
    batchSize: 10,
    concurrency: 6,
    pollIntervalMs: 50,
    reorgProof: { reads: 3, spacingMs: 100 },
    hold: { baseDelayMs: 50, maxDelayMs: 500 },
    log: (l) => logs.push(l),
    onEvent: (e) => events.push(e),
  });
  const summary = await indexer.run({ follow: true, to: head });
  return { summary, events, logs, source };
}

function big(_: string, v: unknown): unknown {
  return typeof v === 'bigint' ? `${v}n` : v;
}

type Digest = Awaited<ReturnType<typeof digest>>;

async function sameStore(t: Test, a: Digest, faulted: DataSource, keys: ChainKeys): Promise<void> {
  const b = await digest(faulted, keys, { limit: 10, light: true });
  t.equal(b.length, a.length, 'as many digest entries');
  const differing = a.filter((x, i) => JSON.stringify(b[i], big) !== JSON.stringify(x, big));
  for (const x of differing.slice(0, 5)) t.same(b[a.indexOf(x)], x, x.label);
  t.equal(differing.length, 0, `all ${a.length} digest entries (every lookup and list) equal a clean run's`);
}

const report = (t: Test, what: string, o: Outcome, faults: Record<string, number>, calls: number): void => {
  const injected = Object.values(faults).reduce((s, n) => s + n, 0);
  t.comment(
    `${what}: ${calls} calls, ${injected} faults injected ${JSON.stringify(faults)}; ` +
      `rpc retries ${JSON.stringify(o.source.retryCounts())}; holds ${JSON.stringify(o.summary.held)}; reorgs ${o.summary.reorgs}; exits 0`,
  );
};

const SEEDS = (process.env.SCOUTKIT_FAULT_SEEDS ?? '1,2,3,4').split(',').map(Number);
const SQL_STORES = async () => (await storeFactories()).filter((f) => f.name !== 'memory');

/**
 * A clean run into a store of a kind: its keys and digest, run once per kind and shared by both
 * tests below (anvil's chain does not change after the scenario).
 */
const cleanRuns = new Map<string, Promise<{ keys: ChainKeys; digest: Digest }>>();
function cleanRun(factory: StoreFactory): Promise<{ keys: ChainKeys; digest: Digest }> {
  let run = cleanRuns.get(factory.name);
  if (run === undefined) {
    run = (async () => {
      const clean: TestStore = await factory.open();
      try {
        const cleanSink = recordingSink(clean);
        await indexThrough(anvil.url, cleanSink);
        const keys = chainKeys(cleanSink.bundles);
        return { keys, digest: await digest(clean, keys, { limit: 10, light: true }) };
      } finally {
        await clean.close();
      }
    })();
    cleanRuns.set(factory.name, run);
  }
  return run;
}

t.test('through a sick node the indexer never exits and stores what a clean run stores', async (t) => {
  for (const factory of await SQL_STORES()) {
    await t.test(factory.name, async (t) => {
      const { keys, digest: cleanDigest } = await cleanRun(factory);
      const all: Record<string, number> = {};
      let waitedOut = 0;
      // one rotation of fault kinds across the seeds: each kind injected whatever each seed's share
      const rotation = new Map<string, number>();
      for (const seed of SEEDS) {
        await t.test(`seed ${seed}`, async (t) => {
          const faulted: TestStore = await factory.open();
          const proxy = await startFaultProxy({ upstream: anvil.url, seed, rotation, rate: 0.05, announce: { from: Math.floor(head / 3), everyMs: 40 }, heavyEvery: 13 });
          t.teardown(async () => {
            await proxy.close();
            await faulted.close();
          });
          const o = await indexThrough(proxy.url, faulted);
          report(t, `${factory.name} seed ${seed}`, o, proxy.faults, proxy.calls());
          for (const [k, n] of Object.entries(proxy.faults)) all[k] = (all[k] ?? 0) + n;
          waitedOut += (o.source.retryCounts()['not-yet'] ?? 0) + o.summary.held['not-yet'];
          t.equal(o.summary.indexedHead, head, 'indexed to the head');
          t.equal(o.summary.reorgs, 0, 'no reorg on a chain that never reorganized');
          t.notOk(o.events.some((e) => e.type === 'reorg'), 'no reorg event');
          t.notOk(o.logs.some((l) => /Missing or invalid parameters/.test(l)), "the log carries the node's messages, not viem's generic text");
          t.ok(o.logs.some((l) => /tracing its \d+ transaction\(s\) one by one/.test(l)), 'a block whose trace times out is traced per transaction');
          await sameStore(t, cleanDigest, faulted, keys);
        });
      }
      t.comment(`${factory.name}, all seeds: ${JSON.stringify(all)}`);
      t.ok(waitedOut > 0, `a backend behind was waited out (${waitedOut} times), never taken for a reorg`);
      for (const kind of [...HTTP_FAULTS, ...CALL_FAULTS, 'trace-heavy']) t.ok((all[kind] ?? 0) > 0, `${kind} faults were injected`);
    });
  }
});

/** the selectors of the reads that must never turn a failure into data */
const READS = {
  balanceOf: '0x70a08231',
  balanceOf1155: '0x00fdd58e',
  uri: '0x0e89341c',
  tokenURI: '0xc87b56dd',
  name: '0x06fdde03',
  decimals: '0x313ce567',
  totalSupply: '0x18160ddd',
};
const SELECTORS = new Set(Object.values(READS));

t.test('no failed balanceOf, uri, name, decimals or totalSupply ever becomes data', async (t) => {
  for (const factory of await SQL_STORES()) {
    await t.test(factory.name, async (t) => {
      const faulted: TestStore = await factory.open();
      const proxy = await startFaultProxy({
        upstream: anvil.url,
        seed: 7,
        rate: 0.5,
        kinds: ['call-timeout', 'entry-32005', 'entry-32603'],
        eligible: ({ method, params }) => {
          const data = (params[0] as { data?: string } | undefined)?.data;
          return method === 'eth_call' && typeof data === 'string' && SELECTORS.has(data.slice(0, 10));
        },
      });
      t.teardown(async () => {
        await proxy.close();
        await faulted.close();
      });
      const { keys, digest: cleanDigest } = await cleanRun(factory);
      // two retries only: many reads fail past them, and must hold their block back
      const o = await indexThrough(proxy.url, faulted, 2);
      report(t, `token reads faulted (${factory.name})`, o, proxy.faults, proxy.calls());
      t.ok((proxy.faults['call-timeout'] ?? 0) > 20, 'many eth_call timeouts injected');
      t.ok(o.summary.held.unavailable > 0, 'reads that failed after their retries held their block back');
      t.ok(o.logs.some((l) => /execution aborted \(timeout = 5s\)|request rate exceeded|internal error/.test(l)), "the node's own message is logged");
      t.notOk(o.logs.some((l) => /Missing or invalid parameters/.test(l)), "not viem's generic text");
      await sameStore(t, cleanDigest, faulted, keys);
    });
  }
});
