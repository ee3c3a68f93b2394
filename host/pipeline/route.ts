/**
 * The one classifier of the paths the server owns, for every way in (the Koa middleware, the
 * fast path, upgrades): below the mount prefix (matched in any case, as a router's would), the
 * socket (`/socket/v2/websocket`, `/{chain_id}/socket/v2/websocket`), then lib's dialects — API v2
 * and v1 by the explorer's route table (keyed by method and template: a path known under other
 * methods only is the 405, with its `allow`), JSON-RPC, Etherscan, the gateway's config, Sourcify's
 * API (at the root; `/` only as a POST, else the docs' or nobody's) — each as the `RequestInfo` the
 * steps judge; and the server's own paths (health, ready, metrics, docs).
 */
import { allowHeader, classifyPath, CONFIG_ENDPOINT, ETHERSCAN_ENDPOINT, parsePath } from '../../lib/index.ts';
import type { ApiForm, RouteMatcher } from '../../lib/index.ts';
import { parseSocketPath } from '../../lib/live/phoenix.ts';
import type { RequestInfo } from '../request.ts';

/** The endpoint names an upgrade to the socket and each join on it are charged as (`costs`). */
export const SOCKET_ENDPOINT = 'socket';
export const SOCKET_JOIN_ENDPOINT = 'socketJoin';
/** The endpoint name Sourcify's API is charged and metered as (its chain is checked by lib: Sourcify's 400). */
export const SOURCIFY_ENDPOINT = 'sourcify';

export type Route =
  /** an API v2 / v1 endpoint; `info.allow` set: the path is known under other methods only (405, after the steps) */
  | { readonly kind: 'api'; readonly info: RequestInfo }
  /** the JSON-RPC subset (its info waits for the body: a batch is charged per call) */
  | { readonly kind: 'rpc'; readonly chainId: string; readonly form: ApiForm }
  | { readonly kind: 'etherscan'; readonly info: RequestInfo }
  | { readonly kind: 'config'; readonly info: RequestInfo }
  | { readonly kind: 'socket'; readonly info: RequestInfo }
  /** Sourcify's API (`info.params.path`: the path below the prefix), as the default chain */
  | { readonly kind: 'sourcify'; readonly info: RequestInfo }
  /** below the prefix (`sub`: the path past it) but none of ours */
  | { readonly kind: 'none'; readonly sub: string };

export interface RouteTable {
  readonly prefix: string;
  /** the prefix in lower case (it matches in any case) */
  readonly lowerPrefix: string;
  readonly routes: RouteMatcher<string>;
  readonly defaultChain: string;
}

export function routeTable(prefix: string, routes: RouteMatcher<string>, defaultChain: string): RouteTable {
  return { prefix, lowerPrefix: prefix.toLowerCase(), routes, defaultChain };
}

/** The route of `path` (raw, without the query) under `method`; null: not below the prefix. */
export function route(table: RouteTable, path: string, method: string): Route | null {
  const { prefix, routes, defaultChain } = table;
  if (prefix !== '' && path.slice(0, prefix.length).toLowerCase() !== table.lowerPrefix) return null;
  // the raw path (lib decodes segments)
  const sub = prefix === '' ? path : path.slice(prefix.length);
  const socket = parseSocketPath(sub);
  if (socket !== null) {
    return { kind: 'socket', info: { endpoint: SOCKET_ENDPOINT, chainId: socket.chainId ?? defaultChain, form: socket.chainId === undefined ? 'instance' : 'multichain', params: {} } };
  }
  const dialect = classifyPath(sub);
  if (dialect === null) return { kind: 'none', sub };
  if (dialect.dialect === 'config') return { kind: 'config', info: { endpoint: CONFIG_ENDPOINT, chainId: defaultChain, form: 'instance', params: {} } };
  if (dialect.dialect === 'sourcify') {
    if (dialect.root && method !== 'POST') return { kind: 'none', sub };
    return { kind: 'sourcify', info: { endpoint: SOURCIFY_ENDPOINT, chainId: defaultChain, form: 'instance', params: { path: sub } } };
  }
  const form: ApiForm = dialect.chainId === undefined ? 'instance' : 'multichain';
  const chainId = dialect.chainId ?? defaultChain;
  switch (dialect.dialect) {
    case 'rpc':
      return { kind: 'rpc', chainId, form };
    case 'etherscan': {
      const { legacyPath } = dialect;
      return { kind: 'etherscan', info: { endpoint: ETHERSCAN_ENDPOINT, chainId, form, params: legacyPath === undefined ? {} : { legacyPath } } };
    }
    case 'api': {
      const match = routes(dialect.subPath, method, dialect.api);
      if (match !== null) {
        const info: RequestInfo =
          match.bodyLimit === undefined
            ? { endpoint: match.endpoint, chainId, form, params: match.params }
            : { endpoint: match.endpoint, chainId, form, params: match.params, bodyLimit: match.bodyLimit };
        return { kind: 'api', info };
      }
      // known under other methods: charged as the first of them, then 405 (with `allow`)
      const others = routes.any(dialect.subPath, dialect.api);
      const first = others[0];
      if (first === undefined) return { kind: 'none', sub };
      return { kind: 'api', info: { endpoint: first.endpoint, chainId, form, params: first.params, allow: allowHeader(others) } };
    }
  }
}

/** The server's own paths, by their metrics label. */
export type OwnRoute = 'health' | 'ready' | 'metrics' | 'docs';

/** the server's own fixed routes, by path */
const SERVER_ROUTES: Readonly<Record<string, OwnRoute>> = { '/health': 'health', '/ready': 'ready' };

export interface OwnPaths {
  readonly metricsPath?: string;
  readonly docsPath?: string;
  /** the docs page at `/` too */
  readonly docsRoot: boolean;
}

/** The classifier of the server's own paths (undefined: not one of them); its paths checked. */
export function serverRoutes(paths: OwnPaths): (path: string) => OwnRoute | undefined {
  const { metricsPath, docsPath, docsRoot } = paths;
  if (metricsPath !== undefined) checkMetricsPath(metricsPath);
  if (metricsPath !== undefined && docsPath !== undefined && (metricsPath === docsPath || metricsPath.startsWith(`${docsPath}/`))) {
    throw new Error(`metrics path "${metricsPath}" is within the docs page's "${docsPath}"`);
  }
  return (path) => {
    const fixed = SERVER_ROUTES[path];
    if (fixed !== undefined) return fixed;
    if (path === metricsPath) return 'metrics';
    if (docsPath !== undefined && ((docsRoot && path === '/') || path === docsPath || path.startsWith(`${docsPath}/`))) return 'docs';
    return undefined;
  };
}

function checkMetricsPath(path: string): void {
  if (!path.startsWith('/') || path === '/' || SERVER_ROUTES[path] !== undefined || parsePath(path) !== null) {
    throw new Error(`metrics path: a path of its own outside the API (e.g. /metrics), got "${path}"`);
  }
}
