/**
 * HTTP upgrade requests (a socket to come) judged by the steps of an HTTP request: the
 * `IncomingMessage` of `server.on('upgrade', …)` becomes the plain request value the steps take
 * (`HostRequest`), its path is classified and routed as a GET's, then identify → rateLimit →
 * knownChain → authorize run as for any request (the same instances: one limiter state). The
 * verdict says allow (with the identity and the limit headers) or gives the refusal to write
 * back on the socket (`refuseUpgrade`). No socket protocol lives here.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { RPC_ENDPOINT } from '../lib/index.ts';
import type { ApiError, Explorer, JsonValue, RouteMatcher } from '../lib/index.ts';
import { reportUnexpected } from './pipeline/log.ts';
import { parseRequest } from './pipeline/parse.ts';
import { failureOf, recordHeaders, render, writeRefusal } from './pipeline/render.ts';
import { route, routeTable, SOCKET_JOIN_ENDPOINT } from './pipeline/route.ts';
import type { RouteTable } from './pipeline/route.ts';
import { runSteps } from './pipeline/steps.ts';
import { ApiException } from './request.ts';
import type { HostRequest, RequestInfo, Step } from './request.ts';

export { SOCKET_ENDPOINT, SOCKET_JOIN_ENDPOINT } from './pipeline/route.ts';

export type UpgradeVerdict =
  | { readonly allow: true; readonly info: RequestInfo; readonly headers: Readonly<Record<string, string>>; readonly request: HostRequest }
  | {
      readonly allow: false;
      readonly status: number;
      readonly headers: Readonly<Record<string, string>>;
      readonly body: JsonValue;
      /** the request value and what the steps learned, as far as they got (the request log line's chain and key) */
      readonly request?: HostRequest;
      readonly info?: RequestInfo;
    };

/** The plain request value of an upgrade request, read as every request is (host/pipeline/parse.ts); the client IP from X-Forwarded-For's first entry when `proxy`. */
export function upgradeRequest(req: IncomingMessage, proxy = false): HostRequest {
  return parseRequest(req, proxy);
}

export interface UpgradeJudgeOptions {
  readonly explorer: Explorer;
  readonly steps: readonly Step[];
  readonly routes: RouteMatcher<string>;
  readonly prefix: string;
  readonly proxy: boolean;
}

/** `judgeUpgrade` over the middleware's own steps (see `ExplorerMiddleware.judgeUpgrade`). */
export function judgeUpgradeBy(options: UpgradeJudgeOptions): (req: IncomingMessage) => Promise<UpgradeVerdict> {
  const { explorer, steps } = options;
  const table = routeTable(options.prefix, options.routes, explorer.defaultChain);
  return async (req) => {
    const headers: Record<string, string> = {};
    const sink = { set: (name: string, value: string) => (headers[name.toLowerCase()] = value) };
    let request: HostRequest | undefined;
    let info: RequestInfo | undefined;
    try {
      request = upgradeRequest(req, options.proxy);
      info = upgradeInfo(table, request.path, headers);
      const waiting = runSteps(steps, request, info, sink);
      if (waiting !== undefined) await waiting;
      return { allow: true, info, headers, request };
    } catch (e) {
      const report = (error: unknown): void => reportUnexpected(error, { method: req.method, path: req.url?.split('?')[0], upgrade: true });
      const { status, body } = render(failureOf(e, report), recordHeaders(headers));
      return { allow: false, status, headers, body, ...(request === undefined ? {} : { request }), ...(info === undefined ? {} : { info }) };
    }
  };
}

/** The upgrade's service, routed as a GET; a path of none is refused (404), one known under other methods too (405) — before any step. */
function upgradeInfo(table: RouteTable, path: string, headers: Record<string, string>): RequestInfo {
  const routed = route(table, path, 'GET');
  if (routed === null || routed.kind === 'none') throw new ApiException({ kind: 'RouteNotFound' });
  if (routed.kind === 'rpc') return { endpoint: RPC_ENDPOINT, chainId: routed.chainId, form: routed.form, params: {} };
  const { info } = routed;
  if (info.allow !== undefined) {
    headers['allow'] = info.allow;
    throw new ApiException({ kind: 'MethodNotAllowed' });
  }
  return info;
}

/** A join as the steps judge it: a GET of `{socket path}/{topic}` by the caller of the upgrade, charged as `socketJoin`. */
export interface Join {
  readonly request: HostRequest;
  /** what the steps learn (the identity), for the request log line */
  readonly info: RequestInfo;
}

/** The join of `topic` on the socket its upgrade (`upgrade`, `upgradeInfo`) opened. */
export function joinOf(upgrade: HostRequest, upgradeInfo: RequestInfo, topic: string): Join {
  return {
    request: { ...upgrade, path: `${upgrade.path}/${topic}` },
    info: { endpoint: SOCKET_JOIN_ENDPOINT, chainId: upgradeInfo.chainId, form: upgradeInfo.form, params: {} },
  };
}

/**
 * `judgeJoin` over the middleware's own steps: the join of `topic` on a socket its upgrade
 * allowed is judged as a GET of `{socket path}/{topic}` by the caller of the upgrade — charged
 * as one request of `socketJoin`, refused for a restricted address (403) unless the upgrade
 * carried the secret `key`, refused when the key was revoked since. null: allowed. `join`: the
 * join as `joinOf` makes it, when the caller keeps it (what the steps learned, for its log line).
 */
export function judgeJoinBy(steps: readonly Step[]): (upgrade: HostRequest, info: RequestInfo, topic: string, join?: Join) => Promise<ApiError | null> {
  const sink = { set: () => undefined };
  return async (upgrade, upgradeInfo, topic, join = joinOf(upgrade, upgradeInfo, topic)) => {
    const { request, info } = join;
    try {
      const waiting = runSteps(steps, request, info, sink);
      if (waiting !== undefined) await waiting;
      return null;
    } catch (e) {
      return failureOf(e, (error) => reportUnexpected(error, { path: upgrade.path, join: true }));
    }
  };
}

/** Answer a refused upgrade on its socket (status, headers, JSON body: host/pipeline/render.ts) and close it. */
export function refuseUpgrade(socket: Duplex, verdict: Extract<UpgradeVerdict, { readonly allow: false }>): void {
  writeRefusal(socket, verdict.status, verdict.headers, verdict.body);
}

