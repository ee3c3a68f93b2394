/**
 * `createServer(options)`: a Koa app serving the explorer middleware, `/health` (liveness),
 * `/ready` (every chain's DataSource answers; each read replica's state), `/metrics` (Prometheus), one JSON log line per
 * request, and a graceful `close()` (stop accepting, let in-flight requests finish, then close
 * the stores). It listens on an http.Server of its own (`listen`, then `http`), or serves one
 * its user owns (`attach`, or `callback()` as Koa's); `judgeUpgrade` judges that server's
 * upgrade requests by the same steps as its HTTP requests.
 */
import { once } from 'node:events';
import { createServer as createHttpServer } from 'node:http';
import type { IncomingMessage, RequestListener, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import type { Middleware, Next, ParameterizedContext } from 'koa';
import { chainConfigs, createExplorer } from '../lib/index.ts';
import type { ChainConfig, ChainSetting, CreateExplorerOptions, Explorer, FailedRequest, ReadReplicas, ReplicaState } from '../lib/index.ts';
import { DEFAULT_DOCS_PATH, docsPage } from './docs.ts';
import { allowsAnyOrigin, anyOriginHeaders, corsMiddleware } from './cors.ts';
import type { FastAnswer } from './fast.ts';
import { createMetrics } from './metrics.ts';
import type { ExplorerMetrics } from './metrics.ts';
import { flushLogs, processOutput } from './log.ts';
import { explorerMiddleware, writeJson } from './middleware.ts';
import type { ExplorerMiddleware, ExplorerMiddlewareOptions } from './middleware.ts';
import { requestInfo } from './request.ts';
import { requestLog } from './pipeline/log.ts';
import type { RequestLog } from './pipeline/log.ts';
import { contextIp } from './pipeline/parse.ts';
import { render } from './pipeline/render.ts';
import { serverRoutes } from './pipeline/route.ts';
import type { OwnPaths, OwnRoute } from './pipeline/route.ts';
import type { RequestLogLine } from './pipeline/log.ts';
import type { UpgradeVerdict } from './upgrade.ts';
import { attachSocket } from './socket.ts';
import type { SocketOptions, SocketServer } from './socket.ts';

export type { RequestLogLine } from './pipeline/log.ts';

export interface ServerOptions extends ExplorerMiddlewareOptions {
  /**
   * one config per chain id: `{ store, node? }`, the node being where JSON-RPC state reads are
   * forwarded (`createRpcNode(url)` from scoutkit/rpc); a bare DataSource stands for `{ store }`
   */
  readonly chains: Readonly<Record<string, ChainSetting>>;
  /** chain of the per-instance form; default the first chain */
  readonly defaultChain?: string;
  /** a ready-made explorer over the same chains (default: `createExplorer({ chains, defaultChain, live })`); `/ready` and the metrics follow its chains (`explorer.chains`) */
  readonly explorer?: Explorer;
  /** live updates' options (createExplorer's `live`: caps, and `blockBroadcast: 'count'` for Blockscout's count mode); with `explorer`, its own */
  readonly live?: CreateExplorerOptions['live'];
  /** receives one line per request; default: JSON on stdout, buffered (host/log.ts `processOutput`) and flushed by close(); `false` for no log */
  readonly log?: ((line: RequestLogLine) => void) | false;
  /** called last on close: close the stores */
  readonly onClose?: () => Promise<void>;
  /** trust X-Forwarded-For for the client IP (behind a load balancer) */
  readonly proxy?: boolean;
  /** after this, close() drops connections still open (default 10 s) */
  readonly shutdownTimeoutMs?: number;
  /** a chain slower than this is not ready (default 2 s) */
  readonly readyTimeoutMs?: number;
  /**
   * `/ready` fails (503) for a chain whose head is older than this: its highest stored block is
   * older, and the head has not moved for as long (an indexer feeding it has stopped). Default:
   * no limit (a finished chain is fine).
   */
  readonly maxHeadAgeSeconds?: number;
  /**
   * API docs for people (swagger-ui over `/api/v2/openapi.json`, served locally) at `/` and
   * `/api-docs`; `false` for none
   */
  readonly docs?: ServerDocsOptions | false;
  /** Prometheus metrics (not behind keys): served at `path` (default `/metrics`); `false` for none */
  readonly metrics?: ServerMetricsOptions | false;
  /**
   * told about a DataSource that threw (answered 503; counted in the metrics); default: one JSON
   * line on stderr. Only when the server builds the explorer (no `explorer` option).
   */
  readonly onStoreError?: (error: unknown, request: FailedRequest) => void;
  /**
   * Blockscout's socket (Phoenix channels) at `/socket/v2/websocket` and
   * `/{chain_id}/socket/v2/websocket` on the server's http.Server (`listen` or `attach`), fed by
   * the chains' change feeds: its bounds (host/socket.ts); default on; `false`: none
   */
  readonly socket?: SocketOptions | false;
  /**
   * answer a plain API read (a GET or HEAD of a JSON route) before Koa, with the same steps,
   * status, headers and bytes (host/fast.ts); default true; `false`: every request through the
   * Koa chain (the comparison the tests make). Middleware added to `app` after `createServer`
   * turns it off (every request then goes through the chain, and so through that middleware).
   */
  readonly fastPath?: boolean;
}

export interface ServerDocsOptions {
  /** the page's path (default `/api-docs`); its assets are served below it */
  readonly path?: string;
  /** also at `/` (default true) */
  readonly root?: boolean;
}

export interface ServerMetricsOptions {
  /** where the scrape is answered (default `/metrics`); outside the API's paths */
  readonly path?: string;
  /** prom-client's process metrics (memory, CPU, event loop, GC) too (default true) */
  readonly processMetrics?: boolean;
}

export const DEFAULT_METRICS_PATH = '/metrics';

export interface ScoutkitServer {
  readonly app: Koa;
  readonly explorer: Explorer;
  /** the server's metrics (its own registry); feed an in-process indexer with `indexerEvents()` */
  readonly metrics?: ExplorerMetrics;
  /** where the metrics are served, when they are */
  readonly metricsPath?: string;
  /** the path of the API docs page when it is served: `/`, or `docs.path` when `docs.root` is false */
  readonly docsPath?: string;
  /** the socket on the http.Server, once `listen` or `attach` made it (not with `socket: false`) */
  readonly socket: SocketServer | undefined;
  /** the http.Server it serves: its own once `listen` resolved, or the one given to `attach`; undefined before */
  readonly http: Server | undefined;
  /** listen; port 0 picks a free one */
  listen(port?: number, host?: string): Promise<{ readonly port: number; readonly url: string }>;
  /**
   * serve on an http.Server its user owns (and listens with): its requests go to this app, and
   * `close()` closes it as it would its own. Once, instead of `listen`.
   */
  attach(server: Server): void;
  /**
   * the server's request listener, for a server `attach` does not fit (http2, https, a test
   * harness): the fast path of plain API reads (`fastPath`), then Koa's `app.callback()`
   */
  callback(): RequestListener;
  /**
   * judge an HTTP upgrade request (`server.on('upgrade', (req, socket) => …)`) by the steps of
   * its HTTP requests (keys, limits, known chain, restrictions; the same limiter state): allow,
   * or the refusal to write back (`refuseUpgrade(socket, verdict)`). Never throws.
   */
  judgeUpgrade(req: IncomingMessage): Promise<UpgradeVerdict>;
  /** graceful: stop accepting, finish in-flight requests, close the limiter and the stores */
  close(): Promise<void>;
}

/** Where a server is in its life: the http.Server it serves, its socket, its closing. */
interface Life {
  server: Server | undefined;
  socket: SocketServer | undefined;
  closing: Promise<void> | undefined;
}

/** What a server's parts share, made once by createServer. */
interface Parts {
  readonly options: ServerOptions;
  /** the explorer's chains (one map: readiness and metrics read the chains the explorer serves) */
  readonly chains: Readonly<Record<string, ChainConfig>>;
  readonly explorer: Explorer;
  readonly metrics: ExplorerMetrics | undefined;
  /** the request log, for every way in (host/pipeline/log.ts) */
  readonly log: RequestLog | undefined;
  readonly paths: OwnPaths;
  /** the server's own paths (host/pipeline/route.ts) */
  readonly own: (path: string) => OwnRoute | undefined;
  readonly life: Life;
}

export function createServer(options: ServerOptions): ScoutkitServer {
  const paths: OwnPaths = {
    ...(options.metrics === false ? {} : { metricsPath: options.metrics?.path ?? DEFAULT_METRICS_PATH }),
    ...(options.docs === false ? {} : { docsPath: options.docs?.path ?? DEFAULT_DOCS_PATH }),
    docsRoot: options.docs !== false && options.docs?.root !== false,
  };
  // the server's own paths (checked: outside the API, and apart)
  const own = serverRoutes(paths);
  // a store error is counted by the metrics, made once the explorer's chains are known
  let metrics: ExplorerMetrics | undefined;
  const explorer = options.explorer ?? defaultExplorer(options, (error, request) => metrics?.storeError(error, request));
  // the explorer's own map of chains (an explorer that shows none: the options')
  const chains = explorer.chains ?? chainConfigs(options.chains);
  metrics =
    options.metrics === false
      ? undefined
      : createMetrics({ chainIds: Object.keys(chains), processMetrics: options.metrics?.processMetrics ?? true, replicas: replicasOf(chains) });
  const log = options.log === false ? undefined : requestLog(options.log ?? writeLogLine);
  const life: Life = { server: undefined, socket: undefined, closing: undefined };
  const parts: Parts = { options, chains, explorer, metrics, log, paths, own, life };
  const app = new Koa({ proxy: options.proxy ?? false });
  const api = useLayers(app, parts);
  const listener = requestListener(app, api, parts);
  const serveSocket = (http: Server): void => {
    if (options.socket !== false) life.socket = socketOn(http, api, parts);
  };
  const { metricsPath, docsPath, docsRoot } = paths;
  return {
    app,
    explorer,
    ...(metrics ? { metrics } : {}),
    ...(metricsPath !== undefined ? { metricsPath } : {}),
    ...(docsPath !== undefined ? { docsPath: docsRoot ? '/' : docsPath } : {}),
    get http() {
      return life.server;
    },
    get socket() {
      return life.socket;
    },
    async listen(port = 0, host = '127.0.0.1') {
      if (life.server !== undefined) throw new Error('createServer: already listening or attached');
      const server = createHttpServer(listener).listen(port, host);
      life.server = server;
      serveSocket(server);
      await once(server, 'listening');
      const address = server.address() as AddressInfo;
      const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      return { port: address.port, url: `http://${shown}:${address.port}` };
    },
    attach(owned) {
      if (life.server !== undefined) throw new Error('createServer: already listening or attached');
      owned.on('request', listener);
      life.server = owned;
      serveSocket(owned);
    },
    callback: () => listener,
    judgeUpgrade: (req) => api.judgeUpgrade(req),
    close() {
      life.closing ??= closeServer(life, options);
      return life.closing;
    },
  };
}

/** The explorer over the server's chains, its store errors counted (`count`) and told. */
function defaultExplorer(options: ServerOptions, count: (error: unknown, request: FailedRequest) => void): Explorer {
  const onStoreError = options.onStoreError ?? writeStoreError;
  return createExplorer({
    chains: options.chains,
    ...(options.defaultChain !== undefined ? { defaultChain: options.defaultChain } : {}),
    ...(options.live !== undefined ? { live: options.live } : {}),
    onError(error, request) {
      count(error, request);
      onStoreError(error, request);
    },
  });
}

/** The Koa chain: metrics, log, CORS, the server's own routes, the docs, the API, the JSON 404. */
function useLayers(app: Koa, parts: Parts): ExplorerMiddleware {
  const { options, explorer, metrics, log, own } = parts;
  if (metrics) app.use(metrics.observe((ctx) => own(ctx.path)));
  if (log) app.use(logLayer(log));
  // CORS on every answer of the server (the API's, its errors, /health, the docs, the 404)
  if (options.cors !== false) app.use(corsMiddleware(options.cors));
  const ownRoutes = serveOwnRoutes(parts);
  // not async: an API request passes through with one `then`, not an async wrapper's ticks
  app.use((ctx, next) => {
    const route = own(ctx.path);
    if (route === 'metrics' || route === 'health' || route === 'ready') return ownRoutes(ctx, next);
    return next().then(() => closeWhenClosing(parts.life, ctx));
  });
  const docs = docsLayer(parts);
  if (docs !== undefined) app.use(docs);
  // CORS is the server's (above): the middleware adds none of its own
  const api = explorerMiddleware(explorer, { ...options, cors: false });
  app.use(api);
  app.use(async (ctx) => {
    const { status, body } = render({ kind: 'RouteNotFound' });
    writeJson(ctx, status, body);
  });
  return api;
}

/** while closing, no connection is kept alive after its response */
function closeWhenClosing(life: Life, ctx: ParameterizedContext): void {
  if (life.closing) ctx.set('connection', 'close');
}

/** `/metrics` (the scrape), `/health` and `/ready`. */
function serveOwnRoutes(parts: Parts): (ctx: ParameterizedContext, next: Next) => Promise<void> {
  const { options, chains, metrics, life } = parts;
  const scrape = metrics?.serve();
  const heads = new Map<string, HeadSeen>();
  return async (ctx, next) => {
    if (scrape && ctx.path === parts.paths.metricsPath) await scrape(ctx, next);
    else if (ctx.path === '/health') writeJson(ctx, 200, { status: 'ok' });
    else {
      const states = await readiness(chains, options.readyTimeoutMs ?? 2000, heads, options.maxHeadAgeSeconds);
      const ready = !life.closing && Object.values(states).every((c) => c.ready);
      if (!ready) ctx.set('retry-after', '1');
      const stale = Object.entries(states).flatMap(([id, c]) => ('stale' in c && c.stale ? [id] : []));
      writeJson(ctx, ready ? 200 : 503, {
        status: ready ? 'ready' : 'unavailable',
        ...(stale.length > 0 ? { message: `head older than ${options.maxHeadAgeSeconds} s on chain(s) ${stale.join(', ')}` } : {}),
        chains: states,
      });
    }
    closeWhenClosing(life, ctx);
  };
}

/** The API docs page, when served. */
function docsLayer(parts: Parts): Middleware | undefined {
  const { options, explorer } = parts;
  const { docsPath, docsRoot, metricsPath } = parts.paths;
  if (docsPath === undefined) return undefined;
  return docsPage({
    chainIds: explorer.chainIds,
    defaultChain: explorer.defaultChain,
    ...(options.prefix !== undefined ? { prefix: options.prefix } : {}),
    ...(options.publicUrl !== undefined ? { publicUrl: options.publicUrl } : {}),
    path: docsPath,
    root: docsRoot,
    multichainNeedsKey: options.requireKeyForMultichain ?? true,
    links: { health: '/health', ready: '/ready', ...(metricsPath !== undefined ? { metrics: metricsPath } : {}) },
  });
}

/**
 * The server's request listener: a plain API read is answered before Koa (host/fast.ts: the same
 * steps, answer, CORS headers, metrics and log line as the chain); anything else, and everything
 * while closing, goes to the chain.
 */
function requestListener(app: Koa, api: ExplorerMiddleware, parts: Parts): RequestListener {
  const { options, metrics, log, own, life } = parts;
  const fast =
    options.fastPath === false || (options.cors !== false && !allowsAnyOrigin(options.cors))
      ? undefined
      : api.fastPath({
          ...(options.cors !== false ? { cors: anyOriginHeaders(options.cors) } : {}),
          ownPath: (path) => own(path) !== undefined,
          closing: () => life.closing !== undefined,
        });
  const koaListener = app.callback();
  if (fast === undefined) return koaListener;
  // middleware added to `app` after this (its user's) would be skipped by the fast path: then Koa serves all
  const layers = app.middleware.length;
  const fastDone = (answer: FastAnswer, started: number): void => {
    const { request, info, status } = answer;
    const ms = performance.now() - started;
    metrics?.count(info, status, ms / 1000);
    log?.(request, info, status, ms);
  };
  return (req, res) => {
    const started = performance.now();
    if (life.closing !== undefined || app.middleware.length !== layers || !fast(req, res, (answer) => fastDone(answer, started))) void koaListener(req, res);
  };
}

/** Blockscout's socket on the server's http.Server, judged by the API's steps. */
function socketOn(http: Server, api: ExplorerMiddleware, parts: Parts): SocketServer {
  const { options, explorer, metrics, log } = parts;
  return attachSocket(
    http,
    {
      explorer,
      ...(options.prefix !== undefined ? { prefix: options.prefix } : {}),
      judgeUpgrade: (req) => api.judgeUpgrade(req),
      judgeJoin: (upgrade, info, topic, join) => api.judgeJoin(upgrade, info, topic, join),
      ...(metrics ? { metrics: metrics.socket } : {}),
      ...(log ? { log, proxy: options.proxy ?? false } : {}),
    },
    options.socket === false ? {} : (options.socket ?? {}),
  );
}

/** Graceful: the socket's connections first (1001), then the http.Server's (idle now, the rest after the timeout), the limiter, the stores, the log. */
async function closeServer(life: Life, options: ServerOptions): Promise<void> {
  const s = life.server;
  // socket connections are not the http.Server's to wait for: closed first (1001)
  await life.socket?.close(Math.min(options.shutdownTimeoutMs ?? 10_000, 2000));
  if (s) {
    const done = new Promise<void>((resolve) => s.close(() => resolve()));
    s.closeIdleConnections();
    const force = setTimeout(() => s.closeAllConnections(), options.shutdownTimeoutMs ?? 10_000);
    await done;
    clearTimeout(force);
  }
  await options.limiter?.close?.();
  await options.onClose?.();
  await flushLogs();
}

/** The Koa chain's request log layer: each request's line once it is answered. */
function logLayer(log: RequestLog): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      log({ method: ctx.method, path: ctx.path, ip: contextIp(ctx) }, requestInfo(ctx), ctx.status, performance.now() - started);
    }
  };
}

function writeLogLine(line: RequestLogLine): void {
  processOutput(1).write(`${JSON.stringify(line)}\n`);
}

function writeStoreError(error: unknown, request: FailedRequest): void {
  const message = error instanceof Error ? error.message : String(error);
  const line = { time: new Date().toISOString(), level: 'error', msg: 'store error', endpoint: request.endpoint, chain: request.chainId, error: message };
  processOutput(2).write(`${JSON.stringify(line)}\n`);
}

/** the chains whose stores read from replicas, and those replicas */
function replicasOf(chains: Readonly<Record<string, ChainConfig>>): Readonly<Record<string, ReadReplicas>> {
  const out: Record<string, ReadReplicas> = {};
  for (const [id, { store }] of Object.entries(chains)) if (store.replicas !== undefined) out[id] = store.replicas;
  return out;
}

/**
 * Failures are not described: a store error may name hosts or credentials. The head's age: now
 * minus the highest block's timestamp, and the seconds since this server saw the head move (null
 * until it has seen it move).
 */
type ChainReadiness =
  | {
      readonly ready: boolean;
      readonly highestBlock: number | null;
      readonly headAgeSeconds?: number;
      readonly headMovedSecondsAgo?: number | null;
      /** older than maxHeadAgeSeconds */
      readonly stale?: boolean;
      /** a store on read replicas: each replica as last probed (the head above is read as a request reads: from one in use, or the primary) */
      readonly replicas?: readonly ReplicaReadiness[];
    }
  | { readonly ready: false; readonly replicas?: readonly ReplicaReadiness[] };

/** a replica's state as /ready writes it */
type ReplicaReadiness = { readonly [K in keyof ReplicaState]: ReplicaState[K] };

/** a chain's highest block as last seen by /ready, and when it last changed (ms; null: not seen changing) */
interface HeadSeen {
  readonly number: number | null;
  readonly movedAt: number | null;
}

async function readiness(
  chains: Readonly<Record<string, ChainConfig>>,
  timeoutMs: number,
  heads: Map<string, HeadSeen>,
  maxHeadAgeSeconds: number | undefined,
): Promise<Record<string, ChainReadiness>> {
  const entries = await Promise.all(
    Object.entries(chains).map(async ([id, { store: primary }]): Promise<[string, ChainReadiness]> => {
      let timer: NodeJS.Timeout | undefined;
      // a store on read replicas: read as a request would, and say how each replica is
      const store = primary.replicas?.pick() ?? primary;
      const replicas = primary.replicas === undefined ? {} : { replicas: primary.replicas.states().map((s): ReplicaReadiness => ({ ...s })) };
      const answer = async (): Promise<ChainReadiness> => {
        const highestBlock = await store.getHighestBlockNumber();
        const now = Date.now();
        const seen = heads.get(id);
        const movedAt = seen === undefined ? null : seen.number !== highestBlock ? now : seen.movedAt;
        heads.set(id, { number: highestBlock, movedAt });
        if (highestBlock === null) return { ready: maxHeadAgeSeconds === undefined, highestBlock, ...(maxHeadAgeSeconds === undefined ? {} : { stale: true }), ...replicas };
        const block = await store.getBlock({ number: highestBlock });
        const headAgeSeconds = block === null ? null : Math.max(0, Math.round(now / 1000 - block.timestamp));
        const headMovedSecondsAgo = movedAt === null ? null : Math.round((now - movedAt) / 1000);
        // stale when both say so: a fixture's old timestamps with a moving head are fine, and so is a fresh head
        const age = Math.min(headAgeSeconds ?? Infinity, headMovedSecondsAgo ?? Infinity);
        const stale = maxHeadAgeSeconds !== undefined && age > maxHeadAgeSeconds;
        return {
          ready: !stale,
          highestBlock,
          ...(headAgeSeconds !== null ? { headAgeSeconds } : {}),
          headMovedSecondsAgo,
          ...(maxHeadAgeSeconds !== undefined ? { stale } : {}),
          ...replicas,
        };
      };
      try {
        const state = await Promise.race([
          answer(),
          new Promise<never>((_r, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
          }),
        ]);
        return [id, state];
      } catch {
        return [id, { ready: false, ...replicas }];
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return Object.fromEntries(entries);
}
