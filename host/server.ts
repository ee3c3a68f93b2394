/**
 * `createServer(options)`: a Koa app serving the explorer middleware, `/health` (liveness),
 * `/ready` (every chain's DataSource answers), `/metrics` (Prometheus), one JSON log line per
 * request, and a graceful `close()` (stop accepting, let in-flight requests finish, then close
 * the stores).
 */
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import type { Middleware, Next, ParameterizedContext } from 'koa';
import { createExplorer, errorResponse, parsePath } from '../lib/index.ts';
import type { DataSource, Explorer, FailedRequest, RpcNode } from '../lib/index.ts';
import { DEFAULT_DOCS_PATH, docsPage } from './docs.ts';
import { corsMiddleware } from './cors.ts';
import { createMetrics } from './metrics.ts';
import type { ExplorerMetrics } from './metrics.ts';
import { explorerMiddleware, writeJson } from './middleware.ts';
import type { ExplorerMiddlewareOptions } from './middleware.ts';
import { requestInfo } from './request.ts';

export interface RequestLogLine {
  readonly time: string;
  readonly method: string;
  /** without the query string: `apikey` and `key` never reach the log */
  readonly path: string;
  readonly status: number;
  readonly ms: number;
  /** the chain the request addressed, when it was one of ours */
  readonly chain?: string;
}

export interface ServerOptions extends ExplorerMiddlewareOptions {
  /** one DataSource per chain id */
  readonly chains: Readonly<Record<string, DataSource>>;
  /** chain of the per-instance form; default the first chain */
  readonly defaultChain?: string;
  /** per chain id: the node JSON-RPC state reads are forwarded to (`createRpcNode(url)` from scoutkit/rpc) */
  readonly nodes?: Readonly<Record<string, RpcNode>>;
  /** a ready-made explorer over the same chains (default: `createExplorer({ chains, defaultChain })`) */
  readonly explorer?: Explorer;
  /** receives one line per request; default: JSON on stdout; `false` for no log */
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
  /** listen; port 0 picks a free one */
  listen(port?: number, host?: string): Promise<{ readonly port: number; readonly url: string }>;
  /** graceful: stop accepting, finish in-flight requests, close the limiter and the stores */
  close(): Promise<void>;
}

export function createServer(options: ServerOptions): ScoutkitServer {
  const metricsPath = options.metrics === false ? undefined : checkMetricsPath(options.metrics?.path ?? DEFAULT_METRICS_PATH);
  const metrics =
    options.metrics === false
      ? undefined
      : createMetrics({ chainIds: Object.keys(options.chains), processMetrics: options.metrics?.processMetrics ?? true });
  const onStoreError = options.onStoreError ?? writeStoreError;
  const explorer =
    options.explorer ??
    createExplorer({
      chains: options.chains,
      ...(options.defaultChain !== undefined ? { defaultChain: options.defaultChain } : {}),
      ...(options.nodes !== undefined ? { nodes: options.nodes } : {}),
      onError(error, request) {
        metrics?.storeError(error, request);
        onStoreError(error, request);
      },
    });
  const app = new Koa({ proxy: options.proxy ?? false });
  let server: Server | undefined;
  let closing: Promise<void> | undefined;

  const docsPath = options.docs === false ? undefined : (options.docs?.path ?? DEFAULT_DOCS_PATH);
  const docsRoot = options.docs !== false && options.docs?.root !== false;
  if (metricsPath !== undefined && docsPath !== undefined && (metricsPath === docsPath || metricsPath.startsWith(`${docsPath}/`))) {
    throw new Error(`metrics path "${metricsPath}" is within the docs page's "${docsPath}"`);
  }
  const routeLabel = (path: string): string | undefined => {
    if (SERVER_ROUTES[path] !== undefined) return SERVER_ROUTES[path];
    if (path === metricsPath) return 'metrics';
    if (docsPath !== undefined && ((docsRoot && path === '/') || path === docsPath || path.startsWith(`${docsPath}/`))) return 'docs';
    return undefined;
  };
  if (metrics) app.use(metrics.observe((ctx) => routeLabel(ctx.path)));
  const log = options.log === false ? undefined : (options.log ?? writeLogLine);
  if (log) app.use(requestLog(log));
  // CORS on every answer of the server (the API's, its errors, /health, the docs, the 404)
  if (options.cors !== false) app.use(corsMiddleware(options.cors));
  const scrape = metrics?.serve();
  // while closing, no connection is kept alive after its response
  const closeWhenClosing = (ctx: ParameterizedContext): void => {
    if (closing) ctx.set('connection', 'close');
  };
  const ownRoutes = async (ctx: ParameterizedContext, next: Next): Promise<void> => {
    if (scrape && ctx.path === metricsPath) await scrape(ctx, next);
    else if (ctx.path === '/health') writeJson(ctx, 200, { status: 'ok' });
    else {
      const chains = await readiness(options.chains, options.readyTimeoutMs ?? 2000);
      const ready = !closing && Object.values(chains).every((c) => c.ready);
      if (!ready) ctx.set('retry-after', '1');
      writeJson(ctx, ready ? 200 : 503, { status: ready ? 'ready' : 'unavailable', chains });
    }
    closeWhenClosing(ctx);
  };
  // not async: an API request passes through with one `then`, not an async wrapper's ticks
  app.use((ctx, next) => {
    const path = ctx.path;
    if ((scrape && path === metricsPath) || path === '/health' || path === '/ready') return ownRoutes(ctx, next);
    return next().then(() => closeWhenClosing(ctx));
  });
  if (docsPath !== undefined) {
    app.use(
      docsPage({
        chainIds: explorer.chainIds,
        defaultChain: explorer.defaultChain,
        ...(options.prefix !== undefined ? { prefix: options.prefix } : {}),
        ...(options.publicUrl !== undefined ? { publicUrl: options.publicUrl } : {}),
        path: docsPath,
        root: docsRoot,
        multichainNeedsKey: options.requireKeyForMultichain ?? true,
        links: { health: '/health', ready: '/ready', ...(metricsPath !== undefined ? { metrics: metricsPath } : {}) },
      }),
    );
  }
  // CORS is the server's (above): the middleware adds none of its own
  app.use(explorerMiddleware(explorer, { ...options, cors: false }));
  app.use(async (ctx) => {
    const { status, body } = errorResponse({ kind: 'RouteNotFound' });
    writeJson(ctx, status, body as { message: string });
  });

  return {
    app,
    explorer,
    ...(metrics ? { metrics } : {}),
    ...(metricsPath !== undefined ? { metricsPath } : {}),
    ...(docsPath !== undefined ? { docsPath: docsRoot ? '/' : docsPath } : {}),
    async listen(port = 0, host = '127.0.0.1') {
      server = app.listen(port, host);
      await once(server, 'listening');
      const address = server.address() as AddressInfo;
      const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      return { port: address.port, url: `http://${shown}:${address.port}` };
    },
    close() {
      closing ??= (async () => {
        const s = server;
        if (s) {
          const done = new Promise<void>((resolve) => s.close(() => resolve()));
          s.closeIdleConnections();
          const force = setTimeout(() => s.closeAllConnections(), options.shutdownTimeoutMs ?? 10_000);
          await done;
          clearTimeout(force);
        }
        await options.limiter?.close?.();
        await options.onClose?.();
      })();
      return closing;
    },
  };
}

function requestLog(log: (line: RequestLogLine) => void): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const chain = requestInfo(ctx)?.chainId;
      log({
        time: new Date().toISOString(),
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        ms: Math.round((performance.now() - started) * 100) / 100,
        ...(chain !== undefined ? { chain } : {}),
      });
    }
  };
}

function writeLogLine(line: RequestLogLine): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

function writeStoreError(error: unknown, request: FailedRequest): void {
  const message = error instanceof Error ? error.message : String(error);
  const line = { time: new Date().toISOString(), level: 'error', msg: 'store error', endpoint: request.endpoint, chain: request.chainId, error: message };
  process.stderr.write(`${JSON.stringify(line)}\n`);
}

/** the metrics label of the server's own routes */
const SERVER_ROUTES: Readonly<Record<string, string>> = { '/health': 'health', '/ready': 'ready' };

function checkMetricsPath(path: string): string {
  if (!path.startsWith('/') || path === '/' || SERVER_ROUTES[path] !== undefined || parsePath(path) !== null) {
    throw new Error(`metrics path: a path of its own outside the API (e.g. /metrics), got "${path}"`);
  }
  return path;
}

/** Failures are not described: a store error may name hosts or credentials. */
type ChainReadiness = { readonly ready: true; readonly highestBlock: number | null } | { readonly ready: false };

async function readiness(
  chains: Readonly<Record<string, DataSource>>,
  timeoutMs: number,
): Promise<Record<string, ChainReadiness>> {
  const entries = await Promise.all(
    Object.entries(chains).map(async ([id, source]): Promise<[string, ChainReadiness]> => {
      let timer: NodeJS.Timeout | undefined;
      try {
        const highestBlock = await Promise.race([
          source.getHighestBlockNumber(),
          new Promise<never>((_r, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
          }),
        ]);
        return [id, { ready: true, highestBlock }];
      } catch {
        return [id, { ready: false }];
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return Object.fromEntries(entries);
}
