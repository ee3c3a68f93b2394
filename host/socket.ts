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
 * - The server's request log (`log`) has a line for each upgrade answered (101, or the refusal's
 *   status) and for each join the steps judged (200, or the refusal's), as for any request.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { RawData, WebSocket } from 'ws';
import { matchRoute } from '../lib/index.ts';
import type { ApiError, Explorer, LiveEvent } from '../lib/index.ts';
import { phoenixConnection, serializerOf } from '../lib/live/phoenix.ts';
import type { PhoenixConnection, Serializer } from '../lib/live/phoenix.ts';
import type { RequestLog } from './pipeline/log.ts';
import { parseQuery, parseRequest, splitUrl } from './pipeline/parse.ts';
import { recordHeaders, render, writeRefusal } from './pipeline/render.ts';
import { route, routeTable } from './pipeline/route.ts';
import type { RouteTable } from './pipeline/route.ts';
import type { SocketDropReason, SocketMetrics } from './metrics.ts';
import type { HostRequest, RequestInfo } from './request.ts';
import { joinOf, refuseUpgrade } from './upgrade.ts';
import type { Join, UpgradeVerdict } from './upgrade.ts';

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
  judgeJoin(upgrade: HostRequest, info: RequestInfo, topic: string, join?: Join): Promise<ApiError | null>;
  readonly metrics?: SocketMetrics;
  /** the server's request log (host/pipeline/log.ts): one line per upgrade answered and per join judged */
  readonly log?: RequestLog;
  /** the client IP of an upgrade refused before its steps (for its log line) from X-Forwarded-For */
  readonly proxy?: boolean;
}

/** How an upgrade was answered, for its log line: the status, and the request value and info as far as the steps got. */
interface Answered {
  readonly status: number;
  readonly request?: HostRequest | undefined;
  readonly info?: RequestInfo | undefined;
}

interface Caller {
  /** a key's identity, or `ip:…` */
  readonly id: string;
  connections: number;
  topics: number;
}

/** One socket server's state, shared by its module-level parts. */
interface Hub {
  readonly server: Server;
  readonly deps: SocketDeps;
  readonly o: { readonly [K in keyof typeof SOCKET_DEFAULTS]: number };
  readonly table: RouteTable;
  readonly wss: WebSocketServer;
  readonly callers: Map<string, Caller>;
  /** the limit headers of an allowed upgrade, written on its 101 */
  readonly upgradeHeaders: WeakMap<IncomingMessage, Readonly<Record<string, string>>>;
  closing: boolean;
}

type Allowed = Extract<UpgradeVerdict, { readonly allow: true }>;

/** Serve the socket on `server`'s upgrade requests to its paths (others are left to other listeners, or 404 when there are none). */
export function attachSocket(server: Server, deps: SocketDeps, options: SocketOptions = {}): SocketServer {
  const o = { ...SOCKET_DEFAULTS, ...definedOnly(options) };
  const hub: Hub = {
    server,
    deps,
    o,
    table: routeTable(deps.prefix ?? '', deps.explorer.routes ?? matchRoute, deps.explorer.defaultChain),
    wss: new WebSocketServer({ noServer: true, maxPayload: o.maxFrameBytes, perMessageDeflate: false, clientTracking: true }),
    callers: new Map(),
    upgradeHeaders: new WeakMap(),
    closing: false,
  };
  hub.wss.on('headers', (headers, req) => {
    for (const [name, value] of Object.entries(hub.upgradeHeaders.get(req) ?? {})) headers.push(`${name}: ${value}`);
  });
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => upgrade(hub, req, socket, head);
  server.on('upgrade', onUpgrade);
  return {
    get connections() {
      return hub.wss.clients.size;
    },
    close: (graceMs = 2000) => closeHub(hub, onUpgrade, graceMs),
  };
}

function upgrade(hub: Hub, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  const started = performance.now();
  const { path, query } = splitUrl(req.url ?? '/');
  if (route(hub.table, path, 'GET')?.kind !== 'socket') {
    // another listener's, or nobody's
    if (hub.server.listenerCount('upgrade') <= 1) logUpgrade(hub, req, { status: refuse(socket, { kind: 'RouteNotFound' }) }, started);
    return;
  }
  // a client gone while it is judged is no error of ours
  socket.on('error', () => undefined);
  void accept(hub, req, socket, head, query)
    .then((answered) => logUpgrade(hub, req, answered, started))
    .catch(() => socket.destroy());
}

async function accept(hub: Hub, req: IncomingMessage, socket: Duplex, head: Buffer, query: string): Promise<Answered> {
  const { o, callers } = hub;
  const vsn = parseQuery(query)['vsn'];
  const serializer = serializerOf(Array.isArray(vsn) ? vsn[0] : vsn);
  if (serializer === null) return { status: refuse(socket, { kind: 'InvalidParams', errors: [{ name: 'vsn', detail: 'a serializer version Phoenix speaks: 2.0.0, or 1.0.0 (the default)' }] }) };
  const verdict = await hub.deps.judgeUpgrade(req);
  if (!verdict.allow) {
    refuseUpgrade(socket, verdict);
    return { status: verdict.status, request: verdict.request, info: verdict.info };
  }
  const { request, info } = verdict;
  if (hub.closing) return { status: refuse(socket, { kind: 'Unavailable', message: 'The server is shutting down' }), request, info };
  const id = info.identity?.id ?? `ip:${request.ip}`;
  let caller = callers.get(id);
  if (caller === undefined) callers.set(id, (caller = { id, connections: 0, topics: 0 }));
  if (caller.connections >= o.maxConnectionsPerCaller) {
    const status = refuse(socket, { kind: 'RateLimited', message: `Too many socket connections: at most ${o.maxConnectionsPerCaller} per caller` }, verdict.headers);
    return { status, request, info };
  }
  const held = caller;
  held.connections++;
  // the raw socket closes once, whether ws took it or refused its handshake
  socket.once('close', () => {
    held.connections--;
    forget(hub, held);
  });
  hub.upgradeHeaders.set(req, verdict.headers);
  const status = await handOver(hub, req, socket, head, (ws) => open(hub, ws, serializer, verdict, held));
  return { status, request, info };
}

/**
 * ws's handshake: 101 once it switched protocols (`opened`); a handshake it refuses (malformed:
 * ws writes 400, or 405 to a method other than GET) closes the socket without it.
 */
function handOver(hub: Hub, req: IncomingMessage, socket: Duplex, head: Buffer, opened: (ws: WebSocket) => void): Promise<number> {
  return new Promise((resolve) => {
    socket.once('close', () => resolve(req.method === 'GET' ? 400 : 405));
    hub.wss.handleUpgrade(req, socket, head, (ws) => {
      resolve(101);
      opened(ws);
    });
  });
}

/** An upgrade's request log line (the request value read here when the steps did not get to it). */
function logUpgrade(hub: Hub, req: IncomingMessage, answered: Answered, started: number): void {
  const { log, proxy } = hub.deps;
  if (log === undefined) return;
  log(answered.request ?? parseRequest(req, proxy ?? false), answered.info, answered.status, performance.now() - started);
}

function forget(hub: Hub, caller: Caller): void {
  if (caller.connections === 0 && caller.topics === 0 && hub.callers.get(caller.id) === caller) hub.callers.delete(caller.id);
}

/** One open connection. */
interface Conn {
  readonly ws: WebSocket;
  readonly idle: NodeJS.Timeout;
  connection: PhoenixConnection | undefined;
  closed: boolean;
  paused: boolean;
}

function open(hub: Hub, ws: WebSocket, serializer: Serializer, verdict: Allowed, caller: Caller): void {
  const { o } = hub;
  const metrics = hub.deps.metrics;
  metrics?.connections(1);
  const conn: Conn = {
    ws,
    idle: setTimeout(() => drop(hub, conn, 'idle', SOCKET_CLOSE.idle, `heartbeat timeout: no frame in ${o.heartbeatTimeoutMs} ms`), o.heartbeatTimeoutMs),
    connection: undefined,
    closed: false,
    paused: false,
  };
  conn.idle.unref();
  conn.connection = phoenixConnection(
    { serializer, maxTopics: o.maxTopicsPerConnection },
    {
      send: (text) => send(hub, conn, text),
      join: (topic, deliver) => join(hub, verdict, caller, topic, deliver),
      joined: (ok) => metrics?.join(ok),
    },
  );
  ws.on('message', (data: RawData, isBinary: boolean) => receive(hub, conn, data, isBinary));
  ws.on('ping', () => conn.idle.refresh());
  ws.on('pong', () => conn.idle.refresh());
  // ws closes the connection itself on a protocol error (1009 for a frame over maxPayload)
  ws.on('error', (error: Error & { code?: string }) => {
    if (conn.closed) return;
    conn.closed = true;
    metrics?.drop(error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' ? 'frame_too_large' : 'error');
    conn.connection?.end();
  });
  ws.on('close', () => {
    conn.closed = true;
    clearTimeout(conn.idle);
    conn.connection?.end();
    metrics?.connections(-1);
  });
}

function drop(hub: Hub, conn: Conn, reason: SocketDropReason, code: number, text: string): void {
  if (conn.closed) return;
  conn.closed = true;
  hub.deps.metrics?.drop(reason);
  conn.connection?.end();
  conn.ws.close(code, text);
}

function send(hub: Hub, conn: Conn, text: string): void {
  if (conn.closed) return;
  const { maxBufferedBytes } = hub.o;
  if (conn.ws.bufferedAmount > maxBufferedBytes) return drop(hub, conn, 'slow', SOCKET_CLOSE.slow, `too slow: more than ${maxBufferedBytes} bytes waiting to be sent`);
  conn.ws.send(bytesOf(text), { binary: false });
  hub.deps.metrics?.message('out');
}

/** A join, judged by the steps as a GET of `{socket path}/{topic}`, within the caller's topics. */
async function join(hub: Hub, verdict: Allowed, caller: Caller, topic: string, deliver: (event: LiveEvent) => void): Promise<(() => void) | { readonly reason: string }> {
  const { maxTopicsPerCaller } = hub.o;
  const tooMany = { reason: `too many topics: at most ${maxTopicsPerCaller} per caller` };
  if (caller.topics >= maxTopicsPerCaller) return tooMany;
  const judged = joinOf(verdict.request, verdict.info, topic);
  const started = performance.now();
  const refusal = await hub.deps.judgeJoin(verdict.request, verdict.info, topic, judged);
  // a join is charged as a request: its line says what the steps said (200: allowed)
  hub.deps.log?.(judged.request, judged.info, refusal === null ? 200 : render(refusal).status, performance.now() - started);
  if (refusal !== null) return { reason: refusalReason(refusal) };
  if (caller.topics >= maxTopicsPerCaller) return tooMany;
  return subscribe(hub, topic, deliver, verdict.info.chainId, caller);
}

/** A frame from the client: handled in order; many waiting pause the reading until few are left. */
function receive(hub: Hub, conn: Conn, data: RawData, isBinary: boolean): void {
  hub.deps.metrics?.message('in');
  conn.idle.refresh();
  const connection = conn.connection;
  if (conn.closed || connection === undefined) return;
  if (isBinary) return drop(hub, conn, 'binary_frame', SOCKET_CLOSE.binary, 'binary frames are not served: JSON text frames only');
  const handled = connection.receive(textOf(data));
  if (!conn.paused && connection.pending >= PAUSE_AT) {
    conn.paused = true;
    conn.ws.pause();
  }
  handled.then(
    (invalid) => {
      if (invalid !== null) return drop(hub, conn, 'invalid_frame', SOCKET_CLOSE.invalidFrame, `invalid frame: ${invalid.invalid}`.slice(0, 120));
      if (conn.paused && connection.pending <= RESUME_AT) {
        conn.paused = false;
        conn.ws.resume();
      }
    },
    () => drop(hub, conn, 'error', SOCKET_CLOSE.internal, 'internal error'),
  );
}

/** follow a topic of the chain for a caller: its unsubscribe function (once), or why not */
function subscribe(hub: Hub, topic: string, deliver: (event: LiveEvent) => void, chainId: string, caller: Caller): (() => void) | { readonly reason: string } {
  const { explorer } = hub.deps;
  if (explorer.subscribe === undefined) return { reason: 'live updates are off: the explorer follows no change feed' };
  let unsubscribe: () => void;
  try {
    unsubscribe = explorer.subscribe(topic, deliver, { chainId });
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
    forget(hub, caller);
    unsubscribe();
  };
}

/** Close every connection (1001, going away) and stop; those still open after `graceMs` are ended. */
async function closeHub(hub: Hub, onUpgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void, graceMs: number): Promise<void> {
  hub.closing = true;
  hub.server.off('upgrade', onUpgrade);
  const clients = [...hub.wss.clients];
  const gone = Promise.all(clients.map((ws) => (ws.readyState === ws.CLOSED ? undefined : new Promise<void>((resolve) => ws.once('close', () => resolve())))));
  for (const ws of clients) ws.close(SOCKET_CLOSE.goingAway, 'server shutting down');
  const timer = setTimeout(() => {
    for (const ws of clients) ws.terminate();
  }, graceMs);
  await gone;
  clearTimeout(timer);
  await new Promise<void>((resolve) => hub.wss.close(() => resolve()));
}

/** A join's refusal as a Phoenix reason: Blockscout's for a restricted address, else the API's message. */
function refusalReason(error: ApiError): string {
  if (error.kind === 'Forbidden') return 'Restricted access';
  const { body } = render(error);
  const message = (body as { message?: unknown }).message;
  return typeof message === 'string' ? message : error.kind;
}

/** Answer an upgrade with the JSON error of `error` and close it; its status. */
function refuse(socket: Duplex, error: ApiError, headers: Readonly<Record<string, string>> = {}): number {
  const withLimits: Record<string, string> = { ...headers };
  // the socket's own refusals (not the steps'): the limit headers only on a 429
  const { status, body } = render(error, error.kind === 'RateLimited' ? recordHeaders(withLimits) : undefined);
  writeRefusal(socket, status, withLimits, body);
  return status;
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
