/**
 * `scoutkit serve`: the explorer's server over the stores given (`--db`, `--chain`), each under
 * the chain id it records, with its contract store, its change feed and its node (`--rpc`), one
 * verifier (one compile pool) for all, keys (`--keys`, reloaded on SIGHUP), limits (in memory or
 * `--redis`), until SIGTERM or SIGINT; then it closes gracefully.
 */
import { parseArgs } from 'node:util';
import { PAGE_FLAGS, pageOptions, parsePageFlags, parsePort } from '../args.ts';
import type { PageFlags } from '../args.ts';
import { loadKeysFile } from '../plans.ts';
import type { KeysConfig } from '../plans.ts';
import type { LimiterStore } from '../limits.ts';
import { createServer } from '../server.ts';
import type { ServerOptions } from '../server.ts';
import { createKeyRing } from '../identity.ts';
import type { KeyRing } from '../identity.ts';
import { reloadKeysOnSighup } from '../keysReload.ts';
import { createLogger, parseLogFormat, processOutput } from '../log.ts';
import type { LogFormat, Logger } from '../log.ts';
import { openStore, redact } from '../stores.ts';
import type { OpenedStore, OpenStoreOptions } from '../stores.ts';
import { servedChainId, unrecordedNote, UNRECORDED_CHAIN_ID } from '../servedChain.ts';
import { parseCorsOrigins } from '../cors.ts';
import { createRpcNode } from '../../adapters/rpc/index.ts';
import { openVerifier } from '../verifier.ts';
import type { BlockBroadcast, ChainSetting } from '../../lib/index.ts';
import type { ContractWatcher } from '../../lib/contracts/watch.ts';

export const SERVE_HELP = `Usage: scoutkit serve --db <url> [options]

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
                          or native solc-<version>; default ~/.cache/scoutkit/compilers. The
                          optional dependency solc serves its own version without a download
                          (without it verification answers unavailable); another version is
                          downloaded from binaries.soliditylang.org ($SCOUTKIT_SOLC_BINARIES) when online
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

/** one `info` line: `msg` and its fields */
type Info = (fields: { msg: string } & Record<string, unknown>) => void;

/** what serve opened, closed on the way out */
interface Resources {
  readonly opened: OpenedStore[];
  watcher?: ContractWatcher;
  closeVerifier?: () => Promise<void>;
  limiter?: LimiterStore;
}

type RpcNode = ReturnType<typeof createRpcNode>;

/** a served chain: the store opened for it (its records, contract store and change feed), and its node (--rpc) */
interface ServedChain {
  readonly store: OpenedStore;
  readonly node?: RpcNode;
}

/** serve's one collection of chains: each served chain under its id, the default chain first */
type ServedChains = ReadonlyMap<string, ServedChain>;

export async function runServeCommand(args: readonly string[]): Promise<number> {
  const options = parseServeArgs(args);
  const log = createLogger(options.logFormat ?? 'json', processOutput(1), processOutput(2));
  const info: Info = ({ msg, ...rest }) => log.info(msg, rest);
  const keys: KeysConfig = options.keys ? await loadKeysFile(options.keys) : { keys: [] };
  const keyRing = keyRingOf(keys);
  // SIGHUP: reload the keys file, never exit (from now on, not only once listening)
  const stopReloading = reloadKeysOnSighup(options.keys, keyRing, log);
  const resources: Resources = { opened: [] };
  const closeStores = async (): Promise<void> => {
    await resources.watcher?.stop();
    await Promise.allSettled([...resources.opened.map((s) => s.close()), resources.closeVerifier?.()]);
  };
  try {
    const opened = await openChains(options, resources.opened, info);
    const defaultChain = opened.keys().next().value ?? UNRECORDED_CHAIN_ID;
    const first = resources.opened[0];
    if (options.artifacts !== undefined && first !== undefined) resources.watcher = await watchArtifacts(options.artifacts, first, defaultChain, log, info);
    if (options.redis) resources.limiter = await openRedisLimiter(options.redis, options.redisPrefix, info);
    const served = withNodes(opened, options.rpc, defaultChain);
    // one verifier (one bounded compile pool) for every chain
    const { verifier, note: verifierNote } = await openVerifier(options.compilers !== undefined ? { compilers: options.compilers } : {});
    if (verifier !== undefined) resources.closeVerifier = () => verifier.close();
    info({ msg: verifierNote });
    const chains = chainSettings(served, verifier);
    const { keys: _grants, anonymousPlan: _anonymous, restrictedAddresses: _restricted, secretKey: _secret, ...keysRest } = keys;
    const server = createServer({ ...serverOptions(options, log, keyRing, resources.limiter), ...keysRest, chains, defaultChain, onClose: closeStores });
    const { url } = await server.listen(options.port, options.host);
    info({
      msg: 'listening',
      url,
      defaultChain,
      chains: Object.fromEntries([...served].map(([id, chain]) => [id, chain.store.description])),
      keys: keys.keys.length,
      ...(server.docsPath !== undefined ? { docs: `${url}${server.docsPath}` } : {}),
      ...(server.metricsPath !== undefined ? { metrics: `${url}${server.metricsPath}` } : {}),
      ...(server.socket !== undefined ? { socket: `${url.replace(/^http/, 'ws')}/socket/v2/websocket` } : {}),
    });
    const signal = await stopSignal();
    info({ msg: 'shutting down', signal });
    process.once(signal, () => process.exit(1)); // a second signal does not wait
    await server.close();
    stopReloading();
    info({ msg: 'stopped' });
    return 0;
  } catch (e) {
    stopReloading();
    await resources.limiter?.close?.();
    await closeStores();
    throw e;
  }
}

function keyRingOf(keys: KeysConfig): KeyRing {
  const { keys: grants, anonymousPlan, restrictedAddresses, secretKey } = keys;
  return createKeyRing({
    keys: grants,
    ...(anonymousPlan !== undefined ? { anonymousPlan } : {}),
    ...(restrictedAddresses !== undefined ? { restrictedAddresses } : {}),
    ...(secretKey !== undefined ? { secretKey } : {}),
  });
}

/** Each store under the chain id it records (host/servedChain.ts), in the order given; --db first: the default chain. */
async function openChains(options: ServeArgs, opened: OpenedStore[], info: Info): Promise<ServedChains> {
  const wanted: (readonly [string | undefined, string, string, OpenStoreOptions])[] = [
    ...(options.db !== undefined ? [[options.defaultChain, options.db, '--default-chain', replicaOptions(options)] as const] : []),
    ...options.chains.map(([id, url]) => [id, url, `--chain ${id}=…`, {}] as const),
  ];
  const served = new Map<string, ServedChain>();
  for (const [given, url, flag, openOptions] of wanted) {
    const store = await openStore(url, openOptions);
    opened.push(store);
    const chain = await servedChainId(store, given, flag);
    if (served.has(chain.id)) throw new Error(`chain ${chain.id} is given twice (by --db and --chain, or by two --chain)`);
    served.set(chain.id, { store });
    const note = unrecordedNote(chain, given);
    if (note !== undefined) info({ msg: note, store: store.description, chain: chain.id });
  }
  return served;
}

/** Zero-step verification of the default chain (host/artifacts.ts, lib/contracts/watch.ts). */
async function watchArtifacts(paths: readonly string[], first: OpenedStore, defaultChain: string, log: Logger, info: Info): Promise<ContractWatcher> {
  const { loadArtifacts, resultFields } = await import('../artifacts.ts');
  const { watchContracts } = await import('../../lib/contracts/watch.ts');
  const artifacts = await loadArtifacts(paths);
  info({ msg: 'artifacts', contracts: artifacts.contracts.length, files: artifacts.files, dirs: artifacts.dirs, formats: artifacts.formats, chain: defaultChain });
  for (const file of artifacts.skipped) info({ msg: 'artifacts skipped', file });
  return watchContracts({
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

/** While Redis is down, each host limits on its own (docs/operations.md "Keys and limits"); it reconnects. ioredis loads only with --redis. */
async function openRedisLimiter(url: string, prefix: string | undefined, info: Info): Promise<LimiterStore> {
  const { connectRedisLimiterStore } = await import('../limiter-redis.ts');
  const redis = await connectRedisLimiterStore({ url, ...(prefix ? { keyPrefix: prefix } : {}) });
  if (!redis.connected) info({ msg: 'Redis not reachable yet: each host limits on its own until it is', redis: redact(url) });
  return redis.store;
}

type Verifier = Awaited<ReturnType<typeof openVerifier>>['verifier'];

/** Each --rpc node beside the chain it names (no id: the default chain); naming a chain not served is an error. */
function withNodes(served: ServedChains, rpc: ServeArgs['rpc'], defaultChain: string): ServedChains {
  const urls = new Map(rpc.map(([id, url]) => [id ?? defaultChain, url] as const));
  for (const id of urls.keys()) if (!served.has(id)) throw new Error(`--rpc names chain ${id}, which is not served`);
  return new Map(
    [...served].map(([id, chain]) => {
      const url = urls.get(id);
      return [id, url === undefined ? chain : { ...chain, node: createRpcNode(url) }];
    }),
  );
}

/** One setting per chain: its store, its contract store (and the verifier), its change feed, and its node when --rpc names one. */
function chainSettings(served: ServedChains, verifier: Verifier): Record<string, ChainSetting> {
  const settings: Record<string, ChainSetting> = {};
  for (const [id, { store, node }] of served) {
    // its change feed: live updates (/events), and the cache sees another process's write at once
    settings[id] = {
      store: store.source,
      ...(node === undefined ? {} : { node }),
      contracts: store.contracts,
      ...(verifier === undefined ? {} : { verifier }),
      ...(store.feed === undefined ? {} : { feed: store.feed }),
    };
  }
  return settings;
}

/** createServer's options from the command line (the chains, the keys file's other fields and onClose aside). */
function serverOptions(options: ServeArgs, log: Logger, keyRing: KeyRing, limiter: LimiterStore | undefined): Omit<ServerOptions, 'chains'> {
  return {
    ...(options.publicUrl !== undefined ? { publicUrl: options.publicUrl } : {}),
    ...(options.cors !== undefined ? { cors: options.cors === false ? false : { origins: options.cors } } : {}),
    keyRing,
    ...(limiter ? { limiter } : {}),
    ...(options.limiterTimeoutMs !== undefined ? { limiterTimeoutMs: options.limiterTimeoutMs } : {}),
    requireKeyForMultichain: !options.openMultichain,
    proxy: options.trustProxy,
    ...(options.maxHeadAgeSeconds !== undefined ? { maxHeadAgeSeconds: options.maxHeadAgeSeconds } : {}),
    log: ({ time: _time, ...line }) => log.info('request', line),
    onStoreError: (error, request) => log.error('store error', { endpoint: request.endpoint, chain: request.chainId, error: error instanceof Error ? error.message : String(error) }),
    ...(options.compress ? {} : { compress: false as const }),
    ...(options.blockBroadcast !== undefined ? { live: { blockBroadcast: options.blockBroadcast } } : {}),
    ...pageOptions(options),
  };
}

function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
}
