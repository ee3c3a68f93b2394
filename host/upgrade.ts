/**
 * HTTP upgrade requests (a socket to come) judged by the steps of an HTTP request: the
 * `IncomingMessage` of `server.on('upgrade', …)` becomes the plain request value the steps take
 * (`HostRequest`), its path is classified and routed as a GET's, then identify → rateLimit →
 * knownChain → authorize run as for any request (the same instances: one limiter state). The
 * verdict says allow (with the identity and the limit headers) or gives the refusal to write
 * back on the socket (`refuseUpgrade`). No socket protocol lives here.
 */
import type { IncomingMessage } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { allowHeader, classifyPath, CONFIG_ENDPOINT, ETHERSCAN_ENDPOINT, RPC_ENDPOINT, toJson } from '../lib/index.ts';
import { parseSocketPath } from '../lib/live/phoenix.ts';
import type { ApiError, ApiForm, Explorer, JsonValue, RouteMatcher } from '../lib/index.ts';
import { reportUnexpected } from './pipeline/log.ts';
import { parseRequest } from './pipeline/parse.ts';
import { failureOf, recordHeaders, render } from './pipeline/render.ts';
import { ApiException } from './request.ts';
import type { HostRequest, RequestInfo, Step } from './request.ts';

/** The endpoint names an upgrade to the socket and each join on it are charged as (`costs`). */
export const SOCKET_ENDPOINT = 'socket';
export const SOCKET_JOIN_ENDPOINT = 'socketJoin';

export type UpgradeVerdict =
  | { readonly allow: true; readonly info: RequestInfo; readonly headers: Readonly<Record<string, string>>; readonly request: HostRequest }
  | { readonly allow: false; readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: JsonValue };

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
  const { explorer, steps, routes, prefix } = options;
  return async (req) => {
    const headers: Record<string, string> = {};
    const sink = { set: (name: string, value: string) => (headers[name.toLowerCase()] = value) };
    try {
      const request = upgradeRequest(req, options.proxy);
      const info = routed(request.path, headers);
      for (const step of steps) {
        const waiting = step(request, info, sink);
        if (waiting !== undefined) await waiting;
      }
      return { allow: true, info, headers, request };
    } catch (e) {
      const report = (error: unknown): void => reportUnexpected(error, { method: req.method, path: req.url?.split('?')[0], upgrade: true });
      const { status, body } = render(failureOf(e, report), recordHeaders(headers));
      return { allow: false, status, headers, body };
    }
  };

  /** The request's service, as the middleware routes it (an upgrade is a GET); a path of none is refused. */
  function routed(path: string, headers: Record<string, string>): RequestInfo {
    if (prefix !== '' && path.slice(0, prefix.length).toLowerCase() !== prefix.toLowerCase()) throw new ApiException({ kind: 'RouteNotFound' });
    const sub = prefix === '' ? path : path.slice(prefix.length);
    const socket = parseSocketPath(sub);
    if (socket !== null) return { endpoint: SOCKET_ENDPOINT, chainId: socket.chainId ?? explorer.defaultChain, form: socket.chainId === undefined ? 'instance' : 'multichain', params: {} };
    const dialect = classifyPath(sub);
    if (dialect === null) throw new ApiException({ kind: 'RouteNotFound' });
    if (dialect.dialect === 'config') return { endpoint: CONFIG_ENDPOINT, chainId: explorer.defaultChain, form: 'instance', params: {} };
    const form: ApiForm = dialect.chainId === undefined ? 'instance' : 'multichain';
    const chainId = dialect.chainId ?? explorer.defaultChain;
    if (dialect.dialect === 'rpc') return { endpoint: RPC_ENDPOINT, chainId, form, params: {} };
    if (dialect.dialect === 'etherscan') return { endpoint: ETHERSCAN_ENDPOINT, chainId, form, params: {} };
    const match = routes(dialect.subPath, 'GET', dialect.api);
    if (match !== null) return { endpoint: match.endpoint, chainId, form, params: match.params };
    const others = routes.any(dialect.subPath, dialect.api);
    if (others.length === 0) throw new ApiException({ kind: 'RouteNotFound' });
    headers['allow'] = allowHeader(others);
    throw new ApiException({ kind: 'MethodNotAllowed' });
  }
}

/**
 * `judgeJoin` over the middleware's own steps: the join of `topic` on a socket its upgrade
 * allowed is judged as a GET of `{socket path}/{topic}` by the caller of the upgrade — charged
 * as one request of `socketJoin`, refused for a restricted address (403) unless the upgrade
 * carried the secret `key`, refused when the key was revoked since. null: allowed.
 */
export function judgeJoinBy(steps: readonly Step[]): (upgrade: HostRequest, info: RequestInfo, topic: string) => Promise<ApiError | null> {
  const sink = { set: () => undefined };
  return async (upgrade, upgradeInfo, topic) => {
    const request: HostRequest = { ...upgrade, path: `${upgrade.path}/${topic}` };
    const info: RequestInfo = { endpoint: SOCKET_JOIN_ENDPOINT, chainId: upgradeInfo.chainId, form: upgradeInfo.form, params: {} };
    try {
      for (const step of steps) {
        const waiting = step(request, info, sink);
        if (waiting !== undefined) await waiting;
      }
      return null;
    } catch (e) {
      return failureOf(e, (error) => reportUnexpected(error, { path: upgrade.path, join: true }));
    }
  };
}

/** Answer a refused upgrade on its socket (status, headers, JSON body) and close it. */
export function refuseUpgrade(socket: Duplex, verdict: Extract<UpgradeVerdict, { readonly allow: false }>): void {
  const body = toJson(verdict.body);
  const head = [
    `HTTP/1.1 ${verdict.status} ${STATUS_CODES[verdict.status] ?? ''}`,
    ...Object.entries(verdict.headers).map(([name, value]) => `${name}: ${value}`),
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}

