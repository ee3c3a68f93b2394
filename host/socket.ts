/**
 * Blockscout's socket: Phoenix channels (lib/live/phoenix.ts) over `ws`, on an http.Server's
 * upgrade requests, at `/socket/v2/websocket` (the default chain) and
 * `/{chain_id}/socket/v2/websocket` (below the server's prefix). The events are the chain's
 * live hub's (`explorer.subscribe`), the payloads those of the API's renderers.
 *
 * - The upgrade is judged by the steps of an HTTP request (host/upgrade.ts: keys as the
 *   multichain form requires them, the rate limit — it is charged as one request of `socket` —,
 *   the known chain); a `vsn` Phoenix does not speak is 422; more open connections than
 *   `maxConnectionsPerCaller` (a key, or an IP without one) is 429. Refusals are JSON answers.
 * - Each join is judged by the same steps (charged as one request of `socketJoin`; a restricted
 *   address is `Restricted access`), within `maxTopicsPerConnection` and `maxTopicsPerCaller`.
 * - Bounds: a frame over `maxFrameBytes` closes with 1009; a binary frame with 1003; a frame that
 *   is not a Phoenix message with 1007; a client whose unsent bytes exceed `maxBufferedBytes` is
 *   too slow and closed with 1013 (the others are not held up); a connection silent for
 *   `heartbeatTimeoutMs` (Phoenix's 45 s) is closed with 1000. While a client's frames wait to
 *   be handled (joins being judged), more than a few pause its reading.
 * - On close, every connection is closed with 1001 (going away), and ended after a grace.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { RawData, WebSocket } from 'ws';
import { matchRoute } from '../lib/index.ts';
import type { ApiError, Explorer, LiveEvent } from '../lib/index.ts';
import { phoenixConnection, serializerOf } from '../lib/live/phoenix.ts';
import type { Serializer } from '../lib/live/phoenix.ts';
import { parseQuery } from './pipeline/parse.ts';
import { recordHeaders, render } from './pipeline/render.ts';
import { route, routeTable } from './pipeline/route.ts';
import type { SocketDropReason, SocketMetrics } from './metrics.ts';
import type { HostRequest, RequestInfo } from './request.ts';
import { refuseUpgrade } from './upgrade.ts';
import type { UpgradeVerdict } from './upgrade.ts';

export interface SocketOptions {
  /** the largest frame a client may send, in bytes (default 64 KiB): a larger one closes the connection (1009) */
  readonly maxFrameBytes?: number;
  /** bytes waiting to be sent to one client (default 1 MiB): beyond, it is too slow and closed (1013) */
  readonly maxBufferedBytes?: number;
  /** a connection that sends no frame for this long is closed (default 45 s, Phoenix's; phoenix.js beats every 30 s) */
  readonly heartbeatTimeoutMs?: number;
  /** open connections per caller: a key, or an IP without one (default 100); beyond, the upgrade is 429 */
  readonly maxConnectionsPerCaller?: number;
  /** topics joined at once on one connection (default 100) */
  readonly maxTopicsPerConnection?: number;
  /** topics joined at once by one caller across its connections (default 1,000) */
  readonly maxTopicsPerCaller?: number;
}

export const SOCKET_DEFAULTS = {
  maxFrameBytes: 64 * 1024,
  maxBufferedBytes: 1024 * 1024,
  heartbeatTimeoutMs: 45_000,
  maxConnectionsPerCaller: 100,
  maxTopicsPerConnection: 100,
  maxTopicsPerCaller: 1000,
} as const;

/** The close codes of the server's own closes. */
export const SOCKET_CLOSE = {
  /** no frame within the heartbeat timeout (as Cowboy closes an idle Phoenix socket) */
  idle: 1000,
  goingAway: 1001,
  binary: 1003,
  invalidFrame: 1007,
  internal: 1011,
  /** the client reads too slowly: its send queue passed `maxBufferedBytes` */
  slow: 1013,
} as const;

/** frames waiting to be handled before a connection's reading is paused, and resumed */
const PAUSE_AT = 32;
const RESUME_AT = 8;

export interface SocketServer {
  /** connections open */
  readonly connections: number;
  /** close every connection (1001, going away) and stop; those still open after `graceMs` are ended */
  close(graceMs?: number): Promise<void>;
}

export interface SocketDeps {
  readonly explorer: Explorer;
  /** the mount prefix of the server's API (the socket is below it too) */
  readonly prefix?: string;
  judgeUpgrade(req: IncomingMessage): Promise<UpgradeVerdict>;
  judgeJoin(upgrade: HostRequest, info: RequestInfo, topic: string): Promise<ApiError | null>;
  readonly metrics?: SocketMetrics;
}

interface Caller {
  /** a key's identity, or `ip:…` */
  readonly id: string;
  connections: number;
  topics: number;
}

/** Serve the socket on `server`'s upgrade requests to its paths (others are left to other listeners, or 404 when there are none). */
export function attachSocket(server: Server, deps: SocketDeps, options: SocketOptions = {}): SocketServer {
  const o = { ...SOCKET_DEFAULTS, ...definedOnly(options) };
  const table = routeTable(deps.prefix ?? '', deps.explorer.routes ?? matchRoute, deps.explorer.defaultChain);
  const metrics = deps.metrics;
  const wss = new WebSocketServer({ noServer: true, maxPayload: o.maxFrameBytes, perMessageDeflate: false, clientTracking: true });
  const callers = new Map<string, Caller>();
  // the limit headers of an allowed upgrade, written on its 101
  const upgradeHeaders = new WeakMap<IncomingMessage, Readonly<Record<string, string>>>();
  let closing = false;
  const forget = (caller: Caller): void => {
    if (caller.connections === 0 && caller.topics === 0 && callers.get(caller.id) === caller) callers.delete(caller.id);
  };

  wss.on('headers', (headers, req) => {
    for (const [name, value] of Object.entries(upgradeHeaders.get(req) ?? {})) headers.push(`${name}: ${value}`);
  });

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const url = req.url ?? '/';
    const mark = url.indexOf('?');
    const path = mark === -1 ? url : url.slice(0, mark);
    if (route(table, path, 'GET')?.kind !== 'socket') {
      // another listener's, or nobody's
      if (server.listenerCount('upgrade') <= 1) refuse(socket, { kind: 'RouteNotFound' });
      return;
    }
    // a client gone while it is judged is no error of ours
    socket.on('error', () => undefined);
    void accept(req, socket, head, mark === -1 ? '' : url.slice(mark + 1)).catch(() => socket.destroy());
  };
  server.on('upgrade', onUpgrade);

  async function accept(req: IncomingMessage, socket: Duplex, head: Buffer, query: string): Promise<void> {
    const vsn = parseQuery(query)['vsn'];
    const serializer = serializerOf(Array.isArray(vsn) ? vsn[0] : vsn);
    if (serializer === null) return refuse(socket, { kind: 'InvalidParams', errors: [{ name: 'vsn', detail: 'a serializer version Phoenix speaks: 2.0.0, or 1.0.0 (the default)' }] });
    const verdict = await deps.judgeUpgrade(req);
    if (!verdict.allow) return refuseUpgrade(socket, verdict);
    if (closing) return refuse(socket, { kind: 'Unavailable', message: 'The server is shutting down' });
    const id = verdict.info.identity?.id ?? `ip:${verdict.request.ip}`;
    let caller = callers.get(id);
    if (caller === undefined) callers.set(id, (caller = { id, connections: 0, topics: 0 }));
    if (caller.connections >= o.maxConnectionsPerCaller) {
      return refuse(socket, { kind: 'RateLimited', message: `Too many socket connections: at most ${o.maxConnectionsPerCaller} per caller` }, verdict.headers);
    }
    const held = caller;
    held.connections++;
    // the raw socket closes once, whether ws took it or refused its handshake
    socket.once('close', () => {
      held.connections--;
      forget(held);
    });
    upgradeHeaders.set(req, verdict.headers);
    wss.handleUpgrade(req, socket, head, (ws) => open(ws, serializer, verdict, held));
  }

  function open(ws: WebSocket, serializer: Serializer, verdict: Extract<UpgradeVerdict, { readonly allow: true }>, caller: Caller): void {
    metrics?.connections(1);
    let closed = false;
    let paused = false;
    const idle = setTimeout(() => drop('idle', SOCKET_CLOSE.idle, `heartbeat timeout: no frame in ${o.heartbeatTimeoutMs} ms`), o.heartbeatTimeoutMs);
    idle.unref();
    const drop = (reason: SocketDropReason, code: number, text: string): void => {
      if (closed) return;
      closed = true;
      metrics?.drop(reason);
      connection.end();
      ws.close(code, text);
    };
    const connection = phoenixConnection(
      { serializer, maxTopics: o.maxTopicsPerConnection },
      {
        send(text) {
          if (closed) return;
          if (ws.bufferedAmount > o.maxBufferedBytes) return drop('slow', SOCKET_CLOSE.slow, `too slow: more than ${o.maxBufferedBytes} bytes waiting to be sent`);
          ws.send(bytesOf(text), { binary: false });
          metrics?.message('out');
        },
        async join(topic, deliver) {
          const tooMany = { reason: `too many topics: at most ${o.maxTopicsPerCaller} per caller` };
          if (caller.topics >= o.maxTopicsPerCaller) return tooMany;
          const refusal = await deps.judgeJoin(verdict.request, verdict.info, topic);
          if (refusal !== null) return { reason: refusalReason(refusal) };
          if (caller.topics >= o.maxTopicsPerCaller) return tooMany;
          return subscribe(topic, deliver, verdict.info.chainId, caller);
        },
        joined: (ok) => metrics?.join(ok),
      },
    );

    ws.on('message', (data: RawData, isBinary: boolean) => {
      metrics?.message('in');
      idle.refresh();
      if (closed) return;
      if (isBinary) return drop('binary_frame', SOCKET_CLOSE.binary, 'binary frames are not served: JSON text frames only');
      const handled = connection.receive(textOf(data));
      if (!paused && connection.pending >= PAUSE_AT) {
        paused = true;
        ws.pause();
      }
      handled.then(
        (invalid) => {
          if (invalid !== null) return drop('invalid_frame', SOCKET_CLOSE.invalidFrame, `invalid frame: ${invalid.invalid}`.slice(0, 120));
          if (paused && connection.pending <= RESUME_AT) {
            paused = false;
            ws.resume();
          }
        },
        () => drop('error', SOCKET_CLOSE.internal, 'internal error'),
      );
    });
    ws.on('ping', () => idle.refresh());
    ws.on('pong', () => idle.refresh());
    // ws closes the connection itself on a protocol error (1009 for a frame over maxPayload)
    ws.on('error', (error: Error & { code?: string }) => {
      if (closed) return;
      closed = true;
      metrics?.drop(error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' ? 'frame_too_large' : 'error');
      connection.end();
    });
    ws.on('close', () => {
      closed = true;
      clearTimeout(idle);
      connection.end();
      metrics?.connections(-1);
    });
  }

  /** follow a topic of the chain for a caller: its unsubscribe function (once), or why not */
  function subscribe(topic: string, deliver: (event: LiveEvent) => void, chainId: string, caller: Caller): (() => void) | { readonly reason: string } {
    if (deps.explorer.subscribe === undefined) return { reason: 'live updates are off: the explorer follows no change feed' };
    let unsubscribe: () => void;
    try {
      unsubscribe = deps.explorer.subscribe(topic, deliver, { chainId });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { reason: /no change feed/.test(message) ? 'live updates are off on this chain: it has no change feed' : message.replace(/^subscribe: /, '') };
    }
    caller.topics++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      caller.topics--;
      forget(caller);
      unsubscribe();
    };
  }

  return {
    get connections() {
      return wss.clients.size;
    },
    async close(graceMs = 2000) {
      closing = true;
      server.off('upgrade', onUpgrade);
      const clients = [...wss.clients];
      const gone = Promise.all(clients.map((ws) => (ws.readyState === ws.CLOSED ? undefined : new Promise<void>((resolve) => ws.once('close', () => resolve())))));
      for (const ws of clients) ws.close(SOCKET_CLOSE.goingAway, 'server shutting down');
      const timer = setTimeout(() => {
        for (const ws of clients) ws.terminate();
      }, graceMs);
      await gone;
      clearTimeout(timer);
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/** A join's refusal as a Phoenix reason: Blockscout's for a restricted address, else the API's message. */
function refusalReason(error: ApiError): string {
  if (error.kind === 'Forbidden') return 'Restricted access';
  const { body } = render(error);
  const message = (body as { message?: unknown }).message;
  return typeof message === 'string' ? message : error.kind;
}

/** Answer an upgrade with the JSON error of `error` and close it. */
function refuse(socket: Duplex, error: ApiError, headers: Readonly<Record<string, string>> = {}): void {
  const withLimits: Record<string, string> = { ...headers };
  // the socket's own refusals (not the steps'): the limit headers only on a 429
  const { status, body } = render(error, error.kind === 'RateLimited' ? recordHeaders(withLimits) : undefined);
  refuseUpgrade(socket, { allow: false, status, headers: withLimits, body });
}

// a broadcast's text is one string for every connection that follows its topic: its bytes are
// made once (the last text's, kept by reference), not once per connection
let lastText: string | undefined;
let lastBytes: Buffer = Buffer.alloc(0);
function bytesOf(text: string): Buffer {
  if (text !== lastText) {
    lastText = text;
    lastBytes = Buffer.from(text, 'utf8');
  }
  return lastBytes;
}

function textOf(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

function definedOnly(options: SocketOptions): Partial<Record<keyof SocketOptions, number>> {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as Partial<Record<keyof SocketOptions, number>>;
}
