/**
 * `scoutkit demo`: a local anvil with the demo contracts deployed and exercised, indexed into
 * an embedded SQLite file, served on http://127.0.0.1:3000, and followed as new blocks arrive.
 */
import { PAGE_FLAGS, pageOptions, parsePageFlags, parsePort } from '../args.ts';
import type { PageFlags } from '../args.ts';
import { parseArgs } from 'node:util';
import { startAnvil } from '../../demo/anvil.ts';
import type { Anvil } from '../../demo/anvil.ts';
import { runScenario } from '../../demo/scenario.ts';
import type { ScenarioFacts } from '../../demo/scenario.ts';
import { createRpcChainSource } from '../../adapters/rpc/index.ts';
import { createIndexer } from '../../lib/indexer/index.ts';
import { createServer } from '../server.ts';
import { LOCAL_PLAN } from '../plans.ts';
import { openStore } from '../stores.ts';
import { asPortError, assertPortFree } from '../portFree.ts';
import type { OpenedStore } from '../stores.ts';
import { demoArtifacts } from '../../demo/verify.ts';
import { artifactSet } from '../../lib/contracts/artifacts.ts';
import { watchContracts } from '../../lib/contracts/watch.ts';
import type { ContractWatcher } from '../../lib/contracts/watch.ts';
import { createArtifactMatcher } from '../../adapters/solc/artifacts.ts';
import { loadArtifacts, resultLine } from '../artifacts.ts';

export const DEMO_HELP = `Usage: scoutkit demo [options]

Start a local anvil, deploy and exercise the demo contracts (ERC-20, ERC-721, ERC-1155, a
value-forwarding router, a reverter, a contract factory), index the chain into an embedded
SQLite file, serve the API, and keep following new blocks (anvil mines one every
--block-time seconds). The demo contracts are verified as they are indexed (their sources
and ABIs at /api/v2/smart-contracts/<address>), and so are yours with --artifacts. Every run
starts a fresh chain, so the store is reset each time.
Needs anvil (Foundry): a clone of scoutkit installs it; elsewhere \`npm i -D @foundry-rs/anvil\`
or foundryup (https://getfoundry.sh).

Options:
  --db <url>            store (default sqlite:./scoutkit-demo.sqlite)
  --port <n>            API port (default 3000; 0 picks a free one)
  --host <addr>         address to bind (default 127.0.0.1)
  --block-time <s>      whole seconds between blocks once the scenario has run (default 1)
  --rounds <n>          extra rounds of token activity in the scenario (default 2)
  --artifacts <dir>     also verify contracts you deploy to the demo's anvil whose code matches
                        a build of this Foundry (out/build-info, needs build_info = true or
                        --build-info) or Hardhat (artifacts/build-info) project (repeatable)
  --metrics-path <path> where Prometheus metrics are served (default /metrics), with the
                        indexer's head and lag
  --no-metrics          do not serve metrics
  --no-docs             do not serve the API docs page (default: at / and /api-docs)
  -h, --help            this help

Stop with Ctrl-C (SIGINT) or SIGTERM.`;

export interface DemoOptions extends PageFlags {
  readonly db: string;
  readonly port: number;
  readonly host: string;
  readonly blockTime: number;
  readonly rounds: number;
  /** Foundry or Hardhat projects whose contracts are verified too */
  readonly artifacts?: readonly string[];
  readonly log?: (line: string) => void;
}

export interface RunningDemo {
  readonly url: string;
  /** the API docs page, unless --no-docs */
  readonly docsUrl?: string;
  /** Prometheus metrics, unless --no-metrics */
  readonly metricsUrl?: string;
  readonly rpcUrl: string;
  readonly facts: ScenarioFacts;
  /** contracts checked against the artifacts, and verified, so far */
  readonly verification: { readonly checked: number; readonly verified: number };
  stop(): Promise<void>;
}

export function parseDemoArgs(args: readonly string[]): DemoOptions {
  const { values } = parseArgs({
    args: [...args],
    strict: true,
    allowPositionals: false,
    options: {
      db: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      'block-time': { type: 'string' },
      rounds: { type: 'string' },
      artifacts: { type: 'string', multiple: true },
      ...PAGE_FLAGS,
    },
  });
  const port = parsePort(values.port);
  const blockTime = Number(values['block-time'] ?? '1');
  if (!Number.isInteger(blockTime) || blockTime < 1) throw new Error(`--block-time: whole seconds, at least 1, got ${values['block-time']}`);
  const rounds = Number(values.rounds ?? '2');
  if (!Number.isInteger(rounds) || rounds < 0) throw new Error(`--rounds: a whole number, got ${values.rounds}`);
  return {
    db: values.db ?? 'sqlite:./scoutkit-demo.sqlite',
    port,
    host: values.host ?? '127.0.0.1',
    blockTime,
    rounds,
    ...(values.artifacts !== undefined && values.artifacts.length > 0 ? { artifacts: values.artifacts } : {}),
    ...parsePageFlags(values),
  };
}

async function rpc(url: string, method: string, params: readonly unknown[]): Promise<void> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
}

/** Start everything; resolves once the scenario is indexed and the API answers. */
export async function startDemo(options: DemoOptions): Promise<RunningDemo> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  let anvil: Anvil | undefined;
  let store: OpenedStore | undefined;
  let watcher: ContractWatcher | undefined;
  const following = new AbortController();
  // before the minute of setup below, not after it
  await assertPortFree(options.port, options.host);
  // the demo's own contracts, and the user's projects (read first: a bad --artifacts fails at once)
  const user = options.artifacts === undefined ? undefined : await loadArtifacts(options.artifacts);
  const matcher = createArtifactMatcher(artifactSet([...demoArtifacts(), ...(user?.contracts ?? [])]));
  if (user !== undefined) log(`artifacts: ${user.contracts.length} compiled contract(s) from ${user.files} build-info file(s) in ${user.dirs.join(', ')}`);
  try {
    anvil = await startAnvil();
    log(`anvil: ${anvil.url}`);
    log('deploying and exercising the demo contracts…');
    const facts = await runScenario(anvil.url, { rounds: options.rounds });
    // the scenario ran on automine; from now on a block every --block-time seconds
    await rpc(anvil.url, 'evm_setIntervalMining', [options.blockTime]);
    store = await openStore(options.db);
    const chainId = String(facts.chainId);
    // created before indexing (it listens later) so that its metrics follow the indexer
    const server = createServer({
      chains: { [chainId]: { store: store.source, contracts: store.contracts } },
      defaultChain: chainId,
      requireKeyForMultichain: false,
      // a developer on their own machine: never throttled (docs/operations.md "Keys and limits")
      anonymousPlan: LOCAL_PLAN,
      log: () => {},
      ...pageOptions(options),
    });
    // zero-step verification as the chain is indexed (lib/contracts/watch.ts)
    watcher = watchContracts({
      source: store.source,
      contracts: store.contracts,
      ...(store.feed !== undefined ? { feed: store.feed } : {}),
      matcher,
      onResult: (r) => {
        if (r.status === 'verified') log(resultLine(r));
      },
      onError: (e) => log(`verification: a pass failed: ${e instanceof Error ? e.message : String(e)}`),
    });
    const source = createRpcChainSource(anvil.url, { log });
    const indexer = createIndexer({
      source,
      sink: store.sink,
      log,
      pollIntervalMs: Math.max(250, options.blockTime * 500),
      ...(server.metrics ? { onEvent: server.metrics.indexerEvents(chainId) } : {}),
    });
    const first = await indexer.run({ reset: true, to: Number(facts.blockNumber) });
    log(`indexed ${first.blocks} blocks, ${first.transactions} transactions into ${store.description}`);
    await watcher.idle();
    log(`verified ${watcher.stats.verified} contract(s) from their artifacts, no compile`);
    const follow = indexer.run({ follow: true, signal: following.signal });
    follow.catch((e: unknown) => log(`indexer stopped: ${e instanceof Error ? e.message : String(e)}`));
    const { url } = await server.listen(options.port, options.host).catch((e: unknown) => {
      throw asPortError(e, options.port, options.host); // taken during the setup
    });
    const opened = store;
    const node = anvil;
    const watching = watcher;
    return {
      url,
      ...(server.docsPath !== undefined ? { docsUrl: `${url}${server.docsPath}` } : {}),
      ...(server.metricsPath !== undefined ? { metricsUrl: `${url}${server.metricsPath}` } : {}),
      rpcUrl: anvil.url,
      facts,
      verification: watching.stats,
      async stop() {
        following.abort();
        await follow.catch(() => undefined);
        await watching.stop();
        await server.close();
        await opened.close();
        await node.stop();
      },
    };
  } catch (e) {
    following.abort();
    await watcher?.stop();
    await store?.close();
    await anvil?.stop();
    throw e;
  }
}

export function exampleUrls(base: string, f: ScenarioFacts): string[] {
  const a = f.accounts;
  const c = f.contracts;
  return [
    `${base}/api/v2/blocks`,
    `${base}/api/v2/transactions`,
    `${base}/api/v2/transactions/${f.txs.reverted}`,
    `${base}/api/v2/transactions/${f.txs.multiTransferBatch}/state-changes`,
    `${base}/api/v2/token-transfers?type=ERC-1155`,
    `${base}/api/v2/addresses/${a.alice}/tokens`,
    `${base}/api/v2/addresses/${a.alice}/nft/collections`,
    `${base}/api/v2/tokens/${c.nft}/instances`,
    `${base}/api/v2/internal-transactions?transaction_hash=${f.txs.routerSplit}`,
    `${base}/${f.chainId}/api/v2/blocks`,
  ];
}

export async function runDemoCommand(args: readonly string[]): Promise<number> {
  const options = parseDemoArgs(args);
  const demo = await startDemo(options);
  process.stdout.write(`\nscoutkit demo: the API is up at ${demo.url} (chain ${demo.facts.chainId}, node ${demo.rpcUrl})\n`);
  if (demo.docsUrl) process.stdout.write(`\nAPI docs (try any endpoint in the browser): ${demo.docsUrl}\n`);
  if (demo.metricsUrl) process.stdout.write(`Metrics (Prometheus): ${demo.metricsUrl}\n`);
  process.stdout.write('\nTry:\n');
  for (const u of exampleUrls(demo.url, demo.facts)) process.stdout.write(`  ${u}\n`);
  process.stdout.write('\nFollowing new blocks. Stop with Ctrl-C.\n');
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  await demo.stop();
  return 0;
}
