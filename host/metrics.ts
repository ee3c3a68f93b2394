/**
 * `createMetrics()`: the server's Prometheus metrics (prom-client), in a registry of its own so
 * that several servers in one process never share or collide.
 *
 * - `scoutkit_http_requests_total{endpoint,chain,status}` and
 *   `scoutkit_http_request_duration_seconds{endpoint}` (a histogram) for every request;
 * - `scoutkit_limiter_rejections_total{kind,caller}`: 429 (`kind="rate"`), 402 (`"credits"`) and the limiter's 503 (`"busy"`);
 * - `scoutkit_store_errors_total{endpoint,chain}`: a DataSource that threw (the explorer's onError);
 * - `scoutkit_replica_lag_seconds`, `scoutkit_replica_versions_behind` and `scoutkit_replica_in_use`
 *   `{chain,replica}`: each read replica of a store on replicas, as last probed (read at scrape);
 * - `scoutkit_indexer_head_block`, `scoutkit_indexer_node_head_block`, `scoutkit_indexer_lag_blocks`
 *   and `scoutkit_indexer_reorgs_total` (by chain), fed by an indexer in the same process;
 * - the process metrics of prom-client (`scoutkit_process_resident_memory_bytes`, …) unless off.
 *
 * Labels take bounded values only: endpoint names (or the name of a non-API route), configured
 * chain ids (anything else is `unknown`), status codes. Never a raw path.
 */
import type { Middleware, ParameterizedContext } from 'koa';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { FailedRequest, ReadReplicas, ReplicaState } from '../lib/index.ts';
import type { RequestInfo } from './request.ts';
import type { IndexerEvent } from '../lib/indexer/index.ts';
import { requestInfo } from './request.ts';

export interface MetricsOptions {
  /** the chains whose ids may appear as labels; any other id is `unknown` (default: any) */
  readonly chainIds?: readonly string[];
  /** also the process metrics of prom-client: memory, CPU, event loop, GC (default true) */
  readonly processMetrics?: boolean;
  /** histogram buckets in seconds (default 1 ms … 5 s) */
  readonly buckets?: readonly number[];
  /** the read replicas of chains whose stores have some (by chain id): their lag, read at each scrape */
  readonly replicas?: Readonly<Record<string, ReadReplicas>>;
}

export interface ExplorerMetrics {
  readonly registry: Registry;
  /** Koa middleware counting and timing every request below it; `route(ctx)` names non-API routes */
  observe(route?: (ctx: ParameterizedContext) => string | undefined): Middleware;
  /** count and time one request answered outside Koa's chain (the server's fast path), as `observe` would */
  count(info: RequestInfo, status: number, seconds: number): void;
  /** a Koa middleware answering the scrape (GET/HEAD) */
  serve(): Middleware;
  /** the explorer's `onError`: a DataSource that threw */
  storeError(error: unknown, request: FailedRequest): void;
  /** an indexer's `onEvent` listener: head, node head, lag and reorgs of the chain it indexes */
  indexerEvents(chainId?: string): (event: IndexerEvent) => void;
  /** the socket's (host/socket.ts): connections open, joins, messages, drops */
  readonly socket: SocketMetrics;
  /** the exposition text */
  text(): Promise<string>;
}

/** Why the server closed a socket connection (the `reason` label of the drops). */
export type SocketDropReason = 'slow' | 'idle' | 'invalid_frame' | 'frame_too_large' | 'binary_frame' | 'error';

/** What the socket counts. */
export interface SocketMetrics {
  /** a connection opened (+1) or closed (-1) */
  connections(delta: 1 | -1): void;
  /** a join answered ok or error */
  join(ok: boolean): void;
  /** a frame received (`in`) or sent (`out`) */
  message(direction: 'in' | 'out'): void;
  /** a connection the server closed */
  drop(reason: SocketDropReason): void;
}

export const METRIC_PREFIX = 'scoutkit_';
const DEFAULT_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** the endpoint label of a request that matched no route */
export const UNMATCHED = 'unmatched';

/**
 * prom-client's process metrics, collected once per process (they describe the process, and each
 * collection starts an event-loop monitor that is never stopped) and shown by every server.
 */
let processRegistry: Registry | undefined;
export function processMetricsRegistry(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, prefix: METRIC_PREFIX });
  }
  return processRegistry;
}

type ChainLabel = (id: string | undefined) => string;

/** The request metrics and what counting one needs; the counts wait in `pending` until read. */
interface RequestMetrics {
  readonly chainLabel: ChainLabel;
  /** counted per request in a Map of our own (no label hashing on the request's path), added to the counter when it is read */
  readonly pending: Map<string, { readonly labels: { endpoint: string; chain: string; status: string }; n: number }>;
  readonly duration: Histogram<'endpoint'>;
  /** one labels object per endpoint for the histogram (observed as it comes) */
  readonly durationLabels: Map<string, { endpoint: string }>;
  readonly rejections: Counter<'kind' | 'caller'>;
  readonly storeErrors: Counter<'endpoint' | 'chain'>;
}

function requestMetrics(registers: Registry[], chainLabel: ChainLabel, buckets: readonly number[]): RequestMetrics {
  // added to the counter when it is read (a scrape, or any read of the registry)
  const pending: RequestMetrics['pending'] = new Map();
  const requests: Counter<'endpoint' | 'chain' | 'status'> = new Counter({
    name: `${METRIC_PREFIX}http_requests_total`,
    help: 'HTTP requests answered, by endpoint (or route), chain and status',
    labelNames: ['endpoint', 'chain', 'status'] as const,
    registers,
    collect() {
      for (const entry of pending.values()) {
        if (entry.n === 0) continue;
        requests.inc(entry.labels, entry.n);
        entry.n = 0;
      }
    },
  });
  const duration = new Histogram({
    name: `${METRIC_PREFIX}http_request_duration_seconds`,
    help: 'time to answer a request, by endpoint (or route)',
    labelNames: ['endpoint'] as const,
    buckets: [...buckets],
    registers,
  });
  const rejections = new Counter({
    name: `${METRIC_PREFIX}limiter_rejections_total`,
    help: 'requests refused by the limiter: kind="rate" (429) or "credits" (402); caller="key" or "anonymous"',
    labelNames: ['kind', 'caller'] as const,
    registers,
  });
  const storeErrors = new Counter({
    name: `${METRIC_PREFIX}store_errors_total`,
    help: 'data source failures (answered 503), by endpoint and chain',
    labelNames: ['endpoint', 'chain'] as const,
    registers,
  });
  return { chainLabel, pending, duration, durationLabels: new Map(), rejections, storeErrors };
}

function countRequest(m: RequestMetrics, info: RequestInfo | undefined, endpoint: string, status: number, seconds: number): void {
  const chain = m.chainLabel(info?.chainId);
  const key = `${endpoint} ${chain} ${status}`;
  let entry = m.pending.get(key);
  if (entry === undefined) {
    entry = { labels: { endpoint, chain, status: String(status) }, n: 0 };
    m.pending.set(key, entry);
  }
  entry.n++;
  let labels = m.durationLabels.get(endpoint);
  if (labels === undefined) {
    labels = { endpoint };
    m.durationLabels.set(endpoint, labels);
  }
  m.duration.observe(labels, seconds);
  const kind = status === 429 ? 'rate' : status === 402 ? 'credits' : status === 503 && info?.limiterBusy ? 'busy' : null;
  if (info && kind !== null) m.rejections.inc({ kind, caller: info.identity?.kind ?? 'anonymous' });
}

function observeRequests(m: RequestMetrics, route?: (ctx: ParameterizedContext) => string | undefined): Middleware {
  const counted = (ctx: ParameterizedContext, status: number, started: number): void => {
    const info = requestInfo(ctx);
    countRequest(m, info, info?.endpoint ?? route?.(ctx) ?? UNMATCHED, status, (performance.now() - started) / 1000);
  };
  // not async: one `then` per request rather than an async function's promise and ticks
  return (ctx, next) => {
    const started = performance.now();
    return next().then(
      () => counted(ctx, ctx.status, started),
      (e: unknown) => {
        // an error that escapes every handler: Koa answers its status, else 500
        const own = (e as { status?: unknown } | null)?.status;
        counted(ctx, typeof own === 'number' && own >= 400 && own < 600 ? own : 500, started);
        throw e;
      },
    );
  };
}

/** The scrape: GET/HEAD answer the registry's exposition text, any other method 405. */
function serveScrape(registry: Registry): Middleware {
  return async (ctx) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.status = 405;
      ctx.set('allow', 'GET, HEAD');
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = JSON.stringify({ message: 'Method not allowed' });
      return;
    }
    ctx.status = 200;
    ctx.type = registry.contentType;
    ctx.set('cache-control', 'no-store');
    ctx.body = await registry.metrics();
  };
}

interface IndexerGauges {
  readonly indexedHead: Gauge<'chain'>;
  readonly nodeHead: Gauge<'chain'>;
  readonly lag: Gauge<'chain'>;
  readonly reorgs: Counter<'chain'>;
}

function indexerGauges(registers: Registry[]): IndexerGauges {
  const indexedHead = new Gauge({
    name: `${METRIC_PREFIX}indexer_head_block`,
    help: 'highest block the in-process indexer has written',
    labelNames: ['chain'] as const,
    registers,
  });
  const nodeHead = new Gauge({
    name: `${METRIC_PREFIX}indexer_node_head_block`,
    help: "the node's head when the in-process indexer last asked",
    labelNames: ['chain'] as const,
    registers,
  });
  const lag = new Gauge({
    name: `${METRIC_PREFIX}indexer_lag_blocks`,
    help: 'node head minus indexed head',
    labelNames: ['chain'] as const,
    registers,
  });
  const reorgs = new Counter({
    name: `${METRIC_PREFIX}indexer_reorgs_total`,
    help: 'reorgs the in-process indexer rolled back',
    labelNames: ['chain'] as const,
    registers,
  });
  return { indexedHead, nodeHead, lag, reorgs };
}

function indexerListener(g: IndexerGauges, chainId: string | undefined): (event: IndexerEvent) => void {
  let chain = chainId;
  return (event) => {
    switch (event.type) {
      case 'start':
        chain ??= String(event.chainId);
        g.nodeHead.set({ chain }, event.nodeHead);
        break;
      case 'progress':
        g.indexedHead.set({ chain: chain ?? '' }, event.indexedHead);
        g.nodeHead.set({ chain: chain ?? '' }, event.nodeHead);
        g.lag.set({ chain: chain ?? '' }, event.headLag);
        break;
      case 'caught-up':
        if (event.indexedHead !== null) g.indexedHead.set({ chain: chain ?? '' }, event.indexedHead);
        g.nodeHead.set({ chain: chain ?? '' }, event.nodeHead);
        g.lag.set({ chain: chain ?? '' }, Math.max(0, event.nodeHead - (event.indexedHead ?? -1)));
        break;
      case 'reorg':
        g.reorgs.inc({ chain: chain ?? '' });
        break;
      default:
        break;
    }
  };
}

/** The replica gauges, set from each replica's last probe when scraped; a replica not probed yet has no lag (absent). */
function replicaGauges(registers: Registry[], replicaSets: readonly (readonly [string, ReadReplicas])[]): void {
  const each = (set: (labels: { chain: string; replica: string }, state: ReplicaState) => void) => (): void => {
    for (const [chain, replicas] of replicaSets) for (const state of replicas.states()) set({ chain, replica: state.name }, state);
  };
  const lagGauge: Gauge<'chain' | 'replica'> = new Gauge({
    name: `${METRIC_PREFIX}replica_lag_seconds`,
    help: "seconds a read replica has been missing a write the primary has (0: caught up), as last probed",
    labelNames: ['chain', 'replica'] as const,
    registers,
    collect: each((labels, s) => {
      if (s.lagSeconds === null) lagGauge.remove(labels);
      else lagGauge.set(labels, s.lagSeconds);
    }),
  });
  const behindGauge: Gauge<'chain' | 'replica'> = new Gauge({
    name: `${METRIC_PREFIX}replica_versions_behind`,
    help: "writes (data versions) a read replica lacks of the primary's, as last probed",
    labelNames: ['chain', 'replica'] as const,
    registers,
    collect: each((labels, s) => {
      if (s.versionsBehind === null) behindGauge.remove(labels);
      else behindGauge.set(labels, s.versionsBehind);
    }),
  });
  const inUseGauge: Gauge<'chain' | 'replica'> = new Gauge({
    name: `${METRIC_PREFIX}replica_in_use`,
    help: '1 while requests read from the replica (it answers, within the allowed lag), else 0',
    labelNames: ['chain', 'replica'] as const,
    registers,
    collect: each((labels, s) => inUseGauge.set(labels, s.inUse ? 1 : 0)),
  });
}

function socketMetrics(registers: Registry[]): SocketMetrics {
  const socketConnections = new Gauge({
    name: `${METRIC_PREFIX}socket_connections`,
    help: 'socket (Phoenix channels) connections open',
    registers,
  });
  const socketJoins = new Counter({
    name: `${METRIC_PREFIX}socket_joins_total`,
    help: 'socket topic joins answered, by result (ok or error)',
    labelNames: ['result'] as const,
    registers,
  });
  const socketMessages = new Counter({
    name: `${METRIC_PREFIX}socket_messages_total`,
    help: 'socket frames received (in) and sent (out)',
    labelNames: ['direction'] as const,
    registers,
  });
  const socketDrops = new Counter({
    name: `${METRIC_PREFIX}socket_drops_total`,
    help: 'socket connections the server closed: slow (send queue over its bound), idle (no frame within the heartbeat timeout), invalid_frame, frame_too_large, binary_frame, error',
    labelNames: ['reason'] as const,
    registers,
  });
  // the labelled children, made once (a message is counted per frame)
  const sent = socketMessages.labels({ direction: 'out' });
  const received = socketMessages.labels({ direction: 'in' });
  return {
    connections: (delta) => (delta > 0 ? socketConnections.inc() : socketConnections.dec()),
    join: (ok) => socketJoins.inc({ result: ok ? 'ok' : 'error' }),
    message: (direction) => (direction === 'out' ? sent : received).inc(),
    drop: (reason) => socketDrops.inc({ reason }),
  };
}

export function createMetrics(options: MetricsOptions = {}): ExplorerMetrics {
  const own = new Registry();
  const registers = [own];
  const known = options.chainIds === undefined ? undefined : new Set(options.chainIds);
  const chainLabel = (id: string | undefined): string => (id === undefined ? '' : known && !known.has(id) ? 'unknown' : id);
  // registered in the order of the exposition: requests, indexer, replicas, socket
  const requests = requestMetrics(registers, chainLabel, options.buckets ?? DEFAULT_BUCKETS);
  const indexer = indexerGauges(registers);
  const replicaSets = Object.entries(options.replicas ?? {});
  if (replicaSets.length > 0) replicaGauges(registers, replicaSets);
  const socket = socketMetrics(registers);
  // this server's metrics, plus the process's
  const registry = (options.processMetrics ?? true) ? Registry.merge([own, processMetricsRegistry()]) : own;
  return {
    registry,
    observe: (route) => observeRequests(requests, route),
    count: (info, status, seconds) => countRequest(requests, info, info.endpoint, status, seconds),
    serve: () => serveScrape(registry),
    storeError(_error, request) {
      requests.storeErrors.inc({ endpoint: request.endpoint, chain: chainLabel(request.chainId) });
    },
    indexerEvents: (chainId) => indexerListener(indexer, chainId),
    socket,
    text: () => registry.metrics(),
  };
}
