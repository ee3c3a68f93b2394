/**
 * `scoutkit index --rpc <url> --db <url> [--from N] [--to N] [--follow] [--no-pending] [--reset]
 *   [--entry-point <address>=<version>]… [--user-ops-backfill]`
 *
 * Fills a store from an EVM JSON-RPC node. Stops at --to (default: the node's head), or with
 * --follow keeps following new blocks until SIGINT/SIGTERM. Re-running resumes where the store
 * ends; --reset empties the store first (needed when the node serves another chain).
 */
import { parseArgs } from 'node:util';
import { createIndexer, OutageError, TRACE_MODES } from '../../lib/indexer/index.ts';
import type { TraceMode } from '../../lib/indexer/index.ts';
import { createRpcChainSource, failureKind } from '../../adapters/rpc/index.ts';
import { createIndexOutput } from '../indexOutput.ts';
import { createIndexerMetrics, serveIndexerMetrics } from '../indexerMetrics.ts';
import type { MetricsEndpoint } from '../indexerMetrics.ts';
import { parseLogFormat } from '../log.ts';
import type { LogFormat } from '../log.ts';
import { parsePort } from '../args.ts';
import { openStore, redact } from '../stores.ts';
import { loadArtifacts, resultFields, resultLine } from '../artifacts.ts';
import { watchContracts } from '../../lib/contracts/watch.ts';
import { ENTRY_POINT_VERSIONS } from '../../lib/domain/userOperations.ts';
import type { EntryPointVersion } from '../../lib/domain/userOperations.ts';
import type { ContractWatcher } from '../../lib/contracts/watch.ts';

export const INDEX_HELP = `Usage: scoutkit index --rpc <url> --db <url> [options]

Index an EVM chain from a JSON-RPC node into a store (resumable; safe to stop at any time).

Store URLs: sqlite:<path>   postgres://...   memory: (for trying it out)

Options:
  --rpc <url>             JSON-RPC endpoint (http or https)
  --db <url>              store to fill
  --from <n>              first block when the store is empty (default 0)
  --to <n>                last block (default: the node's head)
  --follow                keep following new blocks (stop with Ctrl-C); an outage of the node
                          or the database is waited out for as long as it lasts
  --no-pending            with --follow: do not read the node's pending pool (by default,
                          once caught up, each turn reads it — txpool_content, else a
                          pending-transaction filter, else the pending block — into the store's
                          pending transactions, at most 5,000 a turn, and drops those mined,
                          replaced or gone from the pool)
  --retry-for <seconds>   how long an outage of the node or the database is waited out before
                          the run fails (default 120; with --follow: forever)
  --reset                 empty the store first (e.g. the dev chain was restarted)
  --standby               when another indexer holds the store's lease, wait (asking every
                          second) and take over from the stored head once it stops; without it,
                          exit at once naming the holder (host, pid, since when)
  --trace-mode <m>        how call frames and state diffs are read (default: the best rung the node
                          serves, probed at start): block (debug_traceBlockByNumber), transaction
                          (debug_traceTransaction with callTracer and prestateTracer), parity
                          (trace_block and trace_replayBlockTransactions), structlog (the default
                          opcode tracer, frames rebuilt; no state diffs) or none
  --batch <n>             blocks per atomic write (default 25)
  --concurrency <n>       blocks fetched at once (default 8)
  --ipfs-gateway <url>    gateway for ipfs:// metadata (default https://ipfs.io/ipfs/)
  --entry-point <a>=<v>   an ERC-4337 EntryPoint whose bundles are decoded into user operations,
                          beside the canonical v0.6, v0.7 and v0.8 ones (repeatable; <v>: v0.6,
                          v0.7 or v0.8)
  --user-ops-backfill     before indexing, read again from the node the stored blocks that hold
                          EntryPoint bundles and store their user operations (for a store
                          indexed before scoutkit derived them)
  --artifacts <dir>       verify, as they are indexed, the contracts whose code matches a build of
                          this Foundry (out/build-info, needs build_info = true or --build-info) or
                          Hardhat (artifacts/build-info) project: no compile (repeatable; the
                          contracts already in the store are checked at start)
  --metrics-port <n>      serve GET /metrics (Prometheus: heads, lag, blocks/s, retries by kind,
                          held reads, reorgs, outage waits, the lease) and GET /health (200 while
                          the run loop is alive) on this port (0 picks a free one)
  --metrics-host <addr>   address the metrics bind (default 127.0.0.1)
  --log-format <f>        text (default: timestamped lines, a progress bar on a terminal) or json
                          (one object per line: time, level, msg and fields)
  -h, --help              this help

Node capabilities are probed at start: the tracing rung taken, and what the index will lack
without it, are printed once.
One indexer writes a store: it holds the store's lease (Postgres: an advisory lock; SQLite: a
lock on <db>-lease beside the file) for its run, and exits if that lease is lost.`;

export interface IndexArgs {
  readonly rpc: string;
  readonly db: string;
  readonly from?: number;
  readonly to?: number;
  readonly follow: boolean;
  readonly reset: boolean;
  /** false: --no-pending (default: the pool is read in follow mode) */
  readonly pending?: boolean;
  readonly standby?: boolean;
  readonly batch?: number;
  readonly concurrency?: number;
  readonly ipfsGateway?: string;
  readonly metricsPort?: number;
  readonly metricsHost?: string;
  readonly logFormat?: LogFormat;
  readonly retryForSeconds?: number;
  /** Foundry or Hardhat projects whose build info verifies the indexed contracts */
  readonly artifacts?: readonly string[];
  /** the tracing rung asked for (default: probed) */
  readonly traceMode?: TraceMode;
  /** EntryPoints beyond the canonical ones: address → version */
  readonly entryPoints?: Readonly<Record<string, EntryPointVersion>>;
  readonly userOpsBackfill?: boolean;
}

const isEntryPointVersion = (v: string): v is EntryPointVersion => (ENTRY_POINT_VERSIONS as readonly string[]).includes(v);

/** `--entry-point <address>=<version>` values as a map */
function entryPointsOf(values: readonly string[] | undefined): Record<string, EntryPointVersion> | undefined {
  if (values === undefined || values.length === 0) return undefined;
  const out: Record<string, EntryPointVersion> = {};
  for (const v of values) {
    const [address = '', version = ''] = v.split('=');
    if (!/^0x[0-9a-fA-F]{40}$/.test(address) || !isEntryPointVersion(version)) {
      throw new Error(`--entry-point: expected <address>=<version> (version ${ENTRY_POINT_VERSIONS.join(', ')}), got "${v}"`);
    }
    out[address.toLowerCase()] = version;
  }
  return out;
}

const isTraceMode = (v: string): v is TraceMode => (TRACE_MODES as readonly string[]).includes(v);

function blockNumber(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new Error(`${flag}: not a block number: ${value}`);
  return Number(value);
}

function positive(value: string | undefined, flag: string): number | undefined {
  const n = blockNumber(value, flag);
  if (n !== undefined && n < 1) throw new Error(`${flag}: must be at least 1`);
  return n;
}

export function parseIndexArgs(args: readonly string[]): IndexArgs {
  const { values } = parseArgs({
    args: [...args],
    strict: true,
    allowPositionals: false,
    options: {
      rpc: { type: 'string' },
      db: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      follow: { type: 'boolean' },
      reset: { type: 'boolean' },
      'no-pending': { type: 'boolean' },
      standby: { type: 'boolean' },
      batch: { type: 'string' },
      concurrency: { type: 'string' },
      'ipfs-gateway': { type: 'string' },
      'metrics-port': { type: 'string' },
      'metrics-host': { type: 'string' },
      'log-format': { type: 'string' },
      'retry-for': { type: 'string' },
      artifacts: { type: 'string', multiple: true },
      'trace-mode': { type: 'string' },
      'entry-point': { type: 'string', multiple: true },
      'user-ops-backfill': { type: 'boolean' },
    },
  });
  if (values.rpc === undefined) throw new Error('give --rpc <url> (the node to index from)');
  if (!/^https?:\/\//.test(values.rpc)) throw new Error(`--rpc: expected an http(s) URL, got "${redact(values.rpc)}"`);
  if (values.db === undefined) throw new Error('give --db <url> (the store to fill)');
  const from = blockNumber(values.from, '--from');
  const to = blockNumber(values.to, '--to');
  if (from !== undefined && to !== undefined && to < from) throw new Error(`--to ${to} is below --from ${from}`);
  const batch = positive(values.batch, '--batch');
  const concurrency = positive(values.concurrency, '--concurrency');
  const retryFor = values['retry-for'];
  if (retryFor !== undefined && !(/^\d+(\.\d+)?$/.test(retryFor) && Number(retryFor) > 0)) throw new Error(`--retry-for: expected a number of seconds above 0, got "${retryFor}"`);
  const traceMode = values['trace-mode'];
  if (traceMode !== undefined && !isTraceMode(traceMode)) throw new Error(`--trace-mode: expected one of ${TRACE_MODES.join(', ')}, got "${traceMode}"`);
  const entryPoints = entryPointsOf(values['entry-point']);
  return {
    rpc: values.rpc,
    db: values.db,
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined ? { to } : {}),
    follow: values.follow ?? false,
    reset: values.reset ?? false,
    ...(values['no-pending'] === true ? { pending: false } : {}),
    ...(values.standby === true ? { standby: true } : {}),
    ...(batch !== undefined ? { batch } : {}),
    ...(concurrency !== undefined ? { concurrency } : {}),
    ...(values['ipfs-gateway'] !== undefined ? { ipfsGateway: values['ipfs-gateway'] } : {}),
    ...(values['metrics-port'] !== undefined ? { metricsPort: parsePort(values['metrics-port']) } : {}),
    ...(values['metrics-host'] !== undefined ? { metricsHost: values['metrics-host'] } : {}),
    ...(values['log-format'] !== undefined ? { logFormat: parseLogFormat(values['log-format']) } : {}),
    ...(retryFor !== undefined ? { retryForSeconds: Number(retryFor) } : {}),
    ...(values.artifacts !== undefined && values.artifacts.length > 0 ? { artifacts: values.artifacts } : {}),
    ...(traceMode !== undefined ? { traceMode } : {}),
    ...(entryPoints !== undefined ? { entryPoints } : {}),
    ...(values['user-ops-backfill'] === true ? { userOpsBackfill: true } : {}),
  };
}


export interface IndexCommandIo {
  readonly stdout?: NodeJS.WriteStream | { write(text: string): void; isTTY?: boolean; columns?: number };
  readonly stderr?: { write(text: string): void };
  /** aborts the run (default: SIGINT / SIGTERM) */
  readonly signal?: AbortSignal;
}

function leaseLine(state: 'acquired' | 'standby' | 'lost', holder: string | null, follow: boolean): string {
  if (state === 'acquired') return `lease: acquired, this indexer writes the store (${holder ?? ''})`;
  if (state === 'standby') return `lease: standing by, the store's lease is held by ${holder ?? 'another process'}; asking again every second`;
  return `lease: lost (the connection holding it is gone): writing nothing more, ${follow ? 'taking it again once the store answers' : 'exiting'}`;
}

/** Run the command; resolves to the exit code. */
export async function runIndexCommand(args: readonly string[], io: IndexCommandIo = {}): Promise<number> {
  const options = parseIndexArgs(args);
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  // read before anything starts: a project without build info is a clear error at once
  const artifacts = options.artifacts === undefined ? undefined : await loadArtifacts(options.artifacts);
  const store = await openStore(options.db);
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  io.signal?.addEventListener('abort', stop, { once: true });
  if (io.signal === undefined) {
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  }
  const output = createIndexOutput(options.logFormat ?? 'text', stdout, stderr);
  const metrics = options.metricsPort === undefined ? undefined : createIndexerMetrics();
  let endpoint: MetricsEndpoint | undefined;
  let watcher: ContractWatcher | undefined;
  try {
    const sink = store.sink;
    output.say(`scoutkit index: ${redact(options.rpc)} → ${store.description}`, 'index', { rpc: redact(options.rpc), store: store.description });
    if (metrics !== undefined) {
      endpoint = await serveIndexerMetrics(metrics, options.metricsPort ?? 0, options.metricsHost);
      output.say(`metrics at ${endpoint.url}/metrics, health at ${endpoint.url}/health`, 'metrics', { url: `${endpoint.url}/metrics`, health: `${endpoint.url}/health` });
    }
    if (artifacts !== undefined) {
      output.say(
        `artifacts: ${artifacts.contracts.length} compiled contract(s) from ${artifacts.files} build-info file(s) in ${artifacts.dirs.join(', ')}`,
        'artifacts',
        { contracts: artifacts.contracts.length, files: artifacts.files, dirs: artifacts.dirs, formats: artifacts.formats },
      );
      for (const s of artifacts.skipped) output.say(`artifacts: skipped ${s}`, 'artifacts skipped', { file: s });
      watcher = watchContracts({
        source: store.source,
        contracts: store.contracts,
        ...(store.feed !== undefined ? { feed: store.feed } : {}),
        matcher: artifacts.matcher,
        onResult: (r) => {
          if (r.status === 'verified') output.say(resultLine(r), 'contract verified', resultFields(r));
        },
        onError: (e) => output.say(`artifacts: a verification pass failed: ${e instanceof Error ? e.message : String(e)}`, 'verification pass failed', { error: String(e) }),
      });
    }
    const source = createRpcChainSource(options.rpc, {
      log: output.rpcLine,
      ...(metrics !== undefined ? { onRetry: (_what, err) => metrics.onRetry(failureKind(err)) } : {}),
      ...(options.ipfsGateway !== undefined ? { metadata: { ipfsGateway: options.ipfsGateway } } : {}),
      ...(options.traceMode !== undefined ? { traceMode: options.traceMode } : {}),
    });
    const indexer = createIndexer({
      source,
      sink,
      log: output.indexerLine,
      lease: store.lease,
      onEvent: (e) => {
        metrics?.onEvent(e);
        // lease changes as plain lines on stderr (json lines go through the output like the rest)
        if (e.type === 'lease' && (options.logFormat ?? 'text') === 'text') stderr.write(`${leaseLine(e.state, e.holder, options.follow === true)}\n`);
        else output.event(e);
      },
      ...(options.retryForSeconds !== undefined ? { retryForMs: options.retryForSeconds * 1000 } : {}),
      ...(options.batch !== undefined ? { batchSize: options.batch } : {}),
      ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
      ...(options.pending === false ? { pending: false } : {}),
      ...(options.entryPoints !== undefined ? { entryPoints: options.entryPoints } : {}),
    });
    metrics?.setAlive(true);
    const summary = await indexer
      .run({
        ...(options.from !== undefined ? { from: options.from } : {}),
        ...(options.to !== undefined ? { to: options.to } : {}),
        follow: options.follow,
        reset: options.reset,
        standby: options.standby === true,
        ...(options.userOpsBackfill === true ? { userOperationsBackfill: true } : {}),
        signal: controller.signal,
      })
      .catch((e: unknown) => {
        if (e instanceof OutageError) throw new Error(`${e.message} — raise --retry-for, or run with --follow to wait as long as it takes`, { cause: e });
        throw e;
      });
    output.finish();
    if (watcher !== undefined) {
      await watcher.idle();
      const { checked, verified } = watcher.stats;
      output.say(`artifacts: ${verified} contract(s) verified, ${checked - verified} not matching any artifact`, 'artifacts done', { checked, verified });
    }
    output.say(
      `indexed ${summary.blocks} block(s), ${summary.transactions} transaction(s)${summary.reorgs > 0 ? `, ${summary.reorgs} reorg(s)` : ''}; store head ${summary.indexedHead ?? 'none'}`,
      'indexed',
      { ...summary },
    );
    return 0;
  } finally {
    metrics?.setAlive(false);
    output.finish();
    await watcher?.stop();
    await endpoint?.close();
    if (io.signal === undefined) {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    }
    await store.close();
  }
}
