/**
 * The `scoutkit` command line. `main(argv)` returns the exit code; run directly, it exits.
 */
import { PAGE_FLAGS, pageOptions, parsePageFlags, parsePort } from './args.ts';
import type { PageFlags } from './args.ts';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { loadKeysFile } from './plans.ts';
import type { KeysConfig } from './plans.ts';
import type { LimiterStore } from './limits.ts';
import { createServer } from './server.ts';
import { createKeyRing } from './identity.ts';
import { reloadKeysOnSighup } from './keysReload.ts';
import { createLogger, flushLogs, parseLogFormat, processOutput } from './log.ts';
import type { LogFormat } from './log.ts';
import { openStore, redact } from './stores.ts';
import { servedChainId, unrecordedNote, UNRECORDED_CHAIN_ID } from './servedChain.ts';
import { parseCorsOrigins } from './cors.ts';
import { createRpcNode } from '../adapters/rpc/index.ts';
import { openVerifier } from './verifier.ts';
import type { OpenedStore, OpenStoreOptions } from './stores.ts';
import type { BlockBroadcast, ChangeFeed, ContractStore, DataSource } from '../lib/index.ts';
import type { ContractWatcher } from '../lib/contracts/watch.ts';

// Each command's module loads when that command runs (or shows its help): `serve` never loads
// the indexer, the RPC reader or the demo, which keeps the server's memory down.
interface Command {
  readonly summary: string;
  help(): Promise<string>;
  run(args: readonly string[]): Promise<number>;
}

const SERVE_HELP = `Usage: scoutkit serve --db <url> [options]

Serve the Blockscout API v2 (per-instance /api/v2/... and multichain /{chain_id}/api/v2/...),
the JSON-RPC subset (POST /api/eth-rpc and POST /{chain_id}/json-rpc) and the gateway's
chain list (GET /api/json/config).

Store URLs: memory:   memory:fixture (the test fixture chain)   sqlite:<path>   postgres://...

Options:
  --db <url>              store of the default chain, served at /api/v2 under the chain id
                          the store records (the indexer writes it)
  --default-chain <id>    chain id of a --db store that records none (default 1); a store
                          that records another id is an error
  --chain <id>=<url>      another chain (repeatable), served at /<id>/api/v2
  --read-db <url>         a read replica of the --db store (repeatable; postgres://..., a
                          streaming standby): API reads are spread across the replicas, each
                          request on one (its data version and its records); the primary (--db)
                          keeps the writes and the change feed, and serves when no replica can
  --max-replica-lag <s>   a replica missing a write for longer than this many seconds (or not
                          answering) is left out until it catches up (default 10); /ready and
                          /metrics show each replica's lag
  --port <n>              port (default 3000; 0 picks a free one)
  --host <addr>           address to bind (default 127.0.0.1)
  --rpc [<id>=]<url>      a chain's node (repeatable; no id: the default chain): JSON-RPC state reads
                          (eth_call, eth_getCode, eth_getStorageAt, eth_estimateGas,
                          eth_sendRawTransaction, old balances) are forwarded to it
  --public-url <url>      this host's public URL in /api/json/config and the OpenAPI document
                          (default: the request's origin)
  --compilers <dir>       contract verification's compilers: solc-js builds (soljson-v<version>.js)
                          or native solc-<version>; default ~/.cache/scoutkit/compilers, a missing
                          version downloaded from binaries.soliditylang.org when online (needs the
                          optional dependency solc; without it verification answers unavailable)
  --cors <origins>        origins browsers may call from: * (the default, as Blockscout) or a
                          comma-separated list such as https://app.example,http://localhost:5173
  --no-cors               no CORS headers (browsers on other origins cannot call)
  --block-broadcast <m>   how the socket's blocks:new_block announces a block: block (default:
                          each new_block with the block) or count (new_blocks_count, Blockscout's
                          BLOCK_BROADCAST_TYPE=count, for busy chains)
  --no-compress           answer uncompressed (default: gzip or brotli as the client accepts,
                          from 1 KB; a cached answer's compressed form is made once)
  --keys <file>           API keys, plans and restricted addresses (JSON; see docs/operations.md "Keys file");
                          reloaded on SIGHUP (a file that does not parse keeps the old keys)
  --redis <url>           share rate limits between hosts through Redis (e.g. redis://127.0.0.1:6379)
  --redis-prefix <name>   namespace of the limiter's Redis keys (default scoutkit)
  --limiter-timeout <ms>  wait this long for Redis, then answer 503 (default 3000)
  --open-multichain       do not require an API key on /{chain_id}/api/v2 (default: required)
  --trust-proxy           take the client IP from X-Forwarded-For (behind a load balancer); the
                          request log's ip is the socket's otherwise
  --max-head-age <s>      /ready answers 503 for a chain whose head is older than this many seconds
                          (its highest block's timestamp, and no move seen for as long: an indexer
                          feeding it has stopped); default off, as a finished chain is fine
  --log-format <f>        json (default: one object per line: time, level, msg and fields) or
                          text (timestamped lines); request lines name the key (by name) and the IP
  --metrics-path <path>   where Prometheus metrics are served (default /metrics; not behind keys)
  --no-metrics            do not serve metrics
  --no-docs               do not serve the API docs page
  --artifacts <dir>       verify the default chain's contracts whose code matches a build of this
                          Foundry (out/build-info, needs build_info = true or --build-info) or
                          Hardhat (artifacts/build-info) project, without compiling: those in the
                          store at start, then each one an indexer writes (repeatable)
  -h, --help              this help

Stops gracefully on SIGTERM/SIGINT: in-flight requests finish, then the stores close.
SIGHUP reloads the --keys file and logs what changed (key names and plans, never a key).
Endpoints besides the API: GET / and /api-docs (interactive API docs), GET /health (liveness),
GET /ready (every chain's store answers; each chain's head age and read replicas), GET /metrics (Prometheus text format).`;

const demo = () => import('./commands/demo.ts');
const index = () => import('./commands/index.ts');
const seed = () => import('./commands/seed.ts');
const migrate = () => import('./commands/migrate.ts');
const verify = () => import('./commands/verify.ts');

const COMMANDS: Readonly<Record<string, Command>> = {
  serve: { summary: 'serve the explorer API over HTTP', help: async () => SERVE_HELP, run: serve },
  index: {
    summary: 'fill a store from an EVM JSON-RPC node',
    help: async () => (await index()).INDEX_HELP,
    run: async (args) => (await index()).runIndexCommand(args),
  },
  demo: {
    summary: 'local anvil + demo contracts, indexed into SQLite and served',
    help: async () => (await demo()).DEMO_HELP,
    run: async (args) => (await demo()).runDemoCommand(args),
  },
  seed: {
    summary: 'write the test fixture chain into a store (a developer aid)',
    help: async () => (await seed()).SEED_HELP,
    run: async (args) => (await seed()).runSeedCommand(args),
  },
  migrate: {
    summary: 'apply pending schema migrations to a SQL store',
    help: async () => (await migrate()).MIGRATE_HELP,
    run: async (args) => (await migrate()).runMigrateCommand(args),
  },
  verify: {
    summary: "verify one indexed contract from a project's build info or its standard JSON",
    help: async () => (await verify()).VERIFY_HELP,
    run: async (args) => (await verify()).runVerifyCommand(args),
  },
};

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(10)}${c.summary}`);
  return `Usage: scoutkit <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun "scoutkit <command> --help" for a command's options.`;
}

export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' && rest[0] ? COMMANDS[rest[0]] : undefined;
    process.stdout.write(`${topic ? await topic.help() : usage()}\n`);
    return name === undefined ? 1 : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`scoutkit: unknown command "${name}"\n\n${usage()}\n`);
    return 1;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${await command.help()}\n`);
    return 0;
  }
  // the lines a command logged through the buffered outputs (host/log.ts, serve's) are out
  // before it returns, and before its error
  try {
    return await command.run(rest);
  } catch (e) {
    await flushLogs();
    process.stderr.write(`scoutkit ${name}: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  } finally {
    await flushLogs();
  }
}

export interface ServeArgs extends PageFlags {
  readonly db?: string;
  /** `--default-chain`, or without --db the first --chain's id; else the --db store's recorded id (at start) */
  readonly defaultChain?: string;
  readonly chains: readonly (readonly [string, string])[];
  readonly port: number;
  readonly host: string;
  readonly keys?: string;
  readonly redis?: string;
  readonly redisPrefix?: string;
  readonly limiterTimeoutMs?: number;
  readonly openMultichain: boolean;
  readonly trustProxy: boolean;
  /** false for `--no-compress` */
  readonly compress: boolean;
  /** chain id (undefined: the default chain, known once the --db store is open) → node URL */
  readonly rpc: readonly (readonly [string | undefined, string])[];
  readonly publicUrl?: string;
  /** `--compilers`: the verifier's compiler directory */
  readonly compilers?: string;
  /** `--cors` (origins or `*`), or false for `--no-cors`; absent: any origin */
  readonly cors?: '*' | readonly string[] | false;
  readonly maxHeadAgeSeconds?: number;
  readonly logFormat?: LogFormat;
  /** `--read-db`: read replicas of the --db store */
  readonly readDb?: readonly string[];
  readonly maxReplicaLagSeconds?: number;
  /** Foundry or Hardhat projects whose build info verifies the default chain's contracts */
  readonly artifacts?: readonly string[];
  /** `--block-broadcast`: the socket's new-block announcements (absent: each block) */
  readonly blockBroadcast?: BlockBroadcast;
}

export function parseServeArgs(args: readonly string[]): ServeArgs {
  const { values } = parseArgs({
    args: [...args],
    strict: true,
    allowPositionals: false,
    options: {
      db: { type: 'string' },
      'default-chain': { type: 'string' },
      chain: { type: 'string', multiple: true },
      port: { type: 'string' },
      host: { type: 'string' },
      keys: { type: 'string' },
      redis: { type: 'string' },
      'redis-prefix': { type: 'string' },
      'limiter-timeout': { type: 'string' },
      'open-multichain': { type: 'boolean' },
      'trust-proxy': { type: 'boolean' },
      rpc: { type: 'string', multiple: true },
      'public-url': { type: 'string' },
      compilers: { type: 'string' },
      cors: { type: 'string' },
      'no-cors': { type: 'boolean' },
      'max-head-age': { type: 'string' },
      'read-db': { type: 'string', multiple: true },
      'max-replica-lag': { type: 'string' },
      'log-format': { type: 'string' },
      'no-compress': { type: 'boolean' },
      artifacts: { type: 'string', multiple: true },
      'block-broadcast': { type: 'string' },
      ...PAGE_FLAGS,
    },
  });
  const chains = (values.chain ?? []).map((spec): readonly [string, string] => {
    const at = spec.indexOf('=');
    if (at < 1 || at === spec.length - 1) throw new Error(`--chain expects <id>=<db url>, got "${redact(spec)}"`);
    return [spec.slice(0, at), spec.slice(at + 1)];
  });
  if (values.db === undefined && chains.length === 0) throw new Error('give --db <url> (or at least one --chain)');
  const port = parsePort(values.port);
  const defaultChain = values['default-chain'] ?? (values.db === undefined ? chains[0]?.[0] : undefined);
  const rpc = (values.rpc ?? []).map((spec): readonly [string | undefined, string] => {
    const m = /^([^=:/]+)=(.+)$/.exec(spec);
    const [id, url] = m ? [m[1] ?? '', m[2] ?? ''] : [defaultChain, spec];
    if (!/^(https?|wss?):\/\//.test(url)) throw new Error(`--rpc expects [<chain id>=]<http(s) url>, got "${redact(spec)}"`);
    return [id, url];
  });
  const publicUrl = values['public-url'];
  if (publicUrl !== undefined && !/^https?:\/\/[^/]/.test(publicUrl)) throw new Error(`--public-url expects an http(s) URL, got "${publicUrl}"`);
  if (values['no-cors'] && values.cors !== undefined) throw new Error('give --cors or --no-cors, not both');
  const cors = values['no-cors'] ? false : values.cors === undefined ? undefined : parseCorsOrigins(values.cors);
  const readDb = values['read-db'] ?? [];
  if (readDb.length > 0 && values.db === undefined) throw new Error('--read-db names replicas of the --db store: give --db');
  for (const url of readDb) if (!/^postgres(ql)?:\/\//.test(url)) throw new Error(`--read-db expects a postgres:// URL, got "${redact(url)}"`);
  if (values['max-replica-lag'] !== undefined && readDb.length === 0) throw new Error('--max-replica-lag applies to --read-db replicas: give at least one');
  const blockBroadcast = values['block-broadcast'];
  if (blockBroadcast !== undefined && blockBroadcast !== 'block' && blockBroadcast !== 'count') throw new Error(`--block-broadcast expects block or count, got "${blockBroadcast}"`);
  return {
    ...(blockBroadcast !== undefined ? { blockBroadcast } : {}),
    ...(readDb.length > 0 ? { readDb } : {}),
    ...(values['max-replica-lag'] !== undefined ? { maxReplicaLagSeconds: positiveSeconds(values['max-replica-lag'], '--max-replica-lag') } : {}),
    ...(values.db !== undefined ? { db: values.db } : {}),
    ...(defaultChain !== undefined ? { defaultChain } : {}),
    ...(cors !== undefined ? { cors } : {}),
    rpc,
    ...(publicUrl !== undefined ? { publicUrl } : {}),
    ...(values.compilers !== undefined ? { compilers: values.compilers } : {}),
    chains,
    port,
    host: values.host ?? '127.0.0.1',
    ...(values.keys !== undefined ? { keys: values.keys } : {}),
    ...(values.redis !== undefined ? { redis: values.redis } : {}),
    ...(values['redis-prefix'] !== undefined ? { redisPrefix: values['redis-prefix'] } : {}),
    ...(values['limiter-timeout'] !== undefined ? { limiterTimeoutMs: positiveMs(values['limiter-timeout']) } : {}),
    openMultichain: values['open-multichain'] ?? false,
    trustProxy: values['trust-proxy'] ?? false,
    ...(values['max-head-age'] !== undefined ? { maxHeadAgeSeconds: positiveSeconds(values['max-head-age'], '--max-head-age') } : {}),
    ...(values['log-format'] !== undefined ? { logFormat: parseLogFormat(values['log-format']) } : {}),
    compress: !(values['no-compress'] ?? false),
    ...(values.artifacts !== undefined && values.artifacts.length > 0 ? { artifacts: values.artifacts } : {}),
    ...parsePageFlags(values),
  };
}

function positiveMs(text: string): number {
  const ms = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(ms) || ms < 1) throw new Error(`--limiter-timeout expects milliseconds, got "${text}"`);
  return ms;
}

function positiveSeconds(text: string, flag: string): number {
  const s = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !Number.isFinite(s) || s <= 0) throw new Error(`${flag} expects seconds, got "${text}"`);
  return s;
}

/** the --db store's read replicas, as openStore takes them */
function replicaOptions(options: ServeArgs): OpenStoreOptions {
  if (options.readDb === undefined || options.readDb.length === 0) return {};
  return { readUrls: options.readDb, ...(options.maxReplicaLagSeconds !== undefined ? { maxReplicaLagSeconds: options.maxReplicaLagSeconds } : {}) };
}

async function serve(args: readonly string[]): Promise<number> {
  const options = parseServeArgs(args);
  const log = createLogger(options.logFormat ?? 'json', processOutput(1), processOutput(2));
  const info = (fields: { msg: string } & Record<string, unknown>): void => {
    const { msg, ...rest } = fields;
    log.info(msg, rest);
  };
  const keys: KeysConfig = options.keys ? await loadKeysFile(options.keys) : { keys: [] };
  const { keys: grants, anonymousPlan, restrictedAddresses, secretKey, ...keysRest } = keys;
  const keyRing = createKeyRing({
    keys: grants,
    ...(anonymousPlan !== undefined ? { anonymousPlan } : {}),
    ...(restrictedAddresses !== undefined ? { restrictedAddresses } : {}),
    ...(secretKey !== undefined ? { secretKey } : {}),
  });
  // SIGHUP: reload the keys file, never exit (from now on, not only once listening)
  const stopReloading = reloadKeysOnSighup(options.keys, keyRing, log);
  const opened: OpenedStore[] = [];
  let closeVerifier: (() => Promise<void>) | undefined;
  let watcher: ContractWatcher | undefined;
  const closeStores = async () => {
    await watcher?.stop();
    await Promise.allSettled([...opened.map((s) => s.close()), closeVerifier?.()]);
  };
  let limiter: LimiterStore | undefined;
  try {
    // each store under the chain id it records (host/servedChain.ts); --db first: the default chain
    const wanted: (readonly [string | undefined, string, string, OpenStoreOptions])[] = [
      ...(options.db !== undefined ? [[options.defaultChain, options.db, '--default-chain', replicaOptions(options)] as const] : []),
      ...options.chains.map(([id, url]) => [id, url, `--chain ${id}=…`, {}] as const),
    ];
    const chains: Record<string, DataSource> = {};
    const contractStores = new Map<string, ContractStore>();
    const feeds = new Map<string, ChangeFeed>();
    // in the order given (an object lists numeric keys in ascending order)
    const described: [string, string][] = [];
    for (const [given, url, flag, openOptions] of wanted) {
      const store = await openStore(url, openOptions);
      opened.push(store);
      const served = await servedChainId(store, given, flag);
      if (chains[served.id] !== undefined) throw new Error(`chain ${served.id} is given twice (by --db and --chain, or by two --chain)`);
      chains[served.id] = store.source;
      contractStores.set(served.id, store.contracts);
      if (store.feed !== undefined) feeds.set(served.id, store.feed);
      described.push([served.id, store.description]);
      const note = unrecordedNote(served, given);
      if (note !== undefined) info({ msg: note, store: store.description, chain: served.id });
    }
    const defaultChain = described[0]?.[0] ?? UNRECORDED_CHAIN_ID;
    const first = opened[0];
    if (options.artifacts !== undefined && first !== undefined) {
      // zero-step verification of the default chain (host/artifacts.ts, lib/contracts/watch.ts)
      const { loadArtifacts, resultFields } = await import('./artifacts.ts');
      const { watchContracts } = await import('../lib/contracts/watch.ts');
      const artifacts = await loadArtifacts(options.artifacts);
      info({ msg: 'artifacts', contracts: artifacts.contracts.length, files: artifacts.files, dirs: artifacts.dirs, formats: artifacts.formats, chain: defaultChain });
      for (const file of artifacts.skipped) info({ msg: 'artifacts skipped', file });
      watcher = watchContracts({
        source: first.source,
        contracts: first.contracts,
        ...(first.feed !== undefined ? { feed: first.feed } : {}),
        matcher: artifacts.matcher,
        onResult: (r) => {
          if (r.status === 'verified') info({ msg: 'contract verified', chain: defaultChain, ...resultFields(r) });
        },
        onError: (e) => log.error('verification pass failed', { chain: defaultChain, error: e instanceof Error ? e.message : String(e) }),
      });
    }
    const rpcNodes = options.rpc.map(([id, url]) => [id ?? defaultChain, url] as const);
    if (options.redis) {
      // while Redis is down, each host limits on its own (docs/operations.md "Keys and limits"); it reconnects
      // ioredis loads only when --redis is given
      const { connectRedisLimiterStore } = await import('./limiter-redis.ts');
      const redis = await connectRedisLimiterStore({
        url: options.redis,
        ...(options.redisPrefix ? { keyPrefix: options.redisPrefix } : {}),
      });
      limiter = redis.store;
      if (!redis.connected) info({ msg: 'Redis not reachable yet: each host limits on its own until it is', redis: redact(options.redis) });
    }
    for (const [id] of rpcNodes) if (chains[id] === undefined) throw new Error(`--rpc names chain ${id}, which is not served`);
    // one verifier (one bounded compile pool) for every chain
    const { verifier, note: verifierNote } = await openVerifier(options.compilers !== undefined ? { compilers: options.compilers } : {});
    if (verifier !== undefined) closeVerifier = () => verifier.close();
    info({ msg: verifierNote });
    // one config per chain: its store, its contract store (and the verifier), and its node when --rpc names one
    const nodes = new Map(rpcNodes.map(([id, url]) => [id, createRpcNode(url)]));
    const configs = Object.fromEntries(
      Object.entries(chains).map(([id, store]) => {
        const node = nodes.get(id);
        const contracts = contractStores.get(id);
        const feed = feeds.get(id);
        // its change feed: live updates (/events), and the cache sees another process's write at once
        return [
          id,
          {
            store,
            ...(node === undefined ? {} : { node }),
            ...(contracts === undefined ? {} : { contracts, ...(verifier === undefined ? {} : { verifier }) }),
            ...(feed === undefined ? {} : { feed }),
          },
        ];
      }),
    );
    const server = createServer({
      chains: configs,
      defaultChain,
      ...(options.publicUrl !== undefined ? { publicUrl: options.publicUrl } : {}),
      ...(options.cors !== undefined ? { cors: options.cors === false ? false : { origins: options.cors } } : {}),
      ...keysRest,
      keyRing,
      ...(limiter ? { limiter } : {}),
      ...(options.limiterTimeoutMs !== undefined ? { limiterTimeoutMs: options.limiterTimeoutMs } : {}),
      requireKeyForMultichain: !options.openMultichain,
      proxy: options.trustProxy,
      ...(options.maxHeadAgeSeconds !== undefined ? { maxHeadAgeSeconds: options.maxHeadAgeSeconds } : {}),
      log: ({ time: _time, ...line }) => log.info('request', line),
      onStoreError: (error, request) =>
        log.error('store error', { endpoint: request.endpoint, chain: request.chainId, error: error instanceof Error ? error.message : String(error) }),
      ...(options.compress ? {} : { compress: false as const }),
      ...(options.blockBroadcast !== undefined ? { live: { blockBroadcast: options.blockBroadcast } } : {}),
      ...pageOptions(options),
      onClose: closeStores,
    });
    const { url } = await server.listen(options.port, options.host);
    info({
      msg: 'listening',
      url,
      defaultChain,
      chains: Object.fromEntries(described),
      keys: keys.keys.length,
      ...(server.docsPath !== undefined ? { docs: `${url}${server.docsPath}` } : {}),
      ...(server.metricsPath !== undefined ? { metrics: `${url}${server.metricsPath}` } : {}),
      ...(server.socket !== undefined ? { socket: `${url.replace(/^http/, 'ws')}/socket/v2/websocket` } : {}),
    });
    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGTERM', () => resolve('SIGTERM'));
      process.once('SIGINT', () => resolve('SIGINT'));
    });
    info({ msg: 'shutting down', signal });
    process.once(signal, () => process.exit(1)); // a second signal does not wait
    await server.close();
    stopReloading();
    info({ msg: 'stopped' });
    return 0;
  } catch (e) {
    stopReloading();
    await limiter?.close?.();
    await closeStores();
    throw e;
  }
}


// `tsx host/cli.ts ...` runs it too; bin/scoutkit.ts calls main itself
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exit(await main(process.argv.slice(2)));
}
