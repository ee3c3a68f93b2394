/**
 * The socket under load: CONNECTIONS clients (raw ws, Phoenix V2 frames) each join
 * blocks:new_block and one of ADDRESSES address topics (the written blocks' busiest transaction
 * parties, then token-transfer parties), while
 * the fixture chain's blocks are written one by one to a memory store at RATE blocks/s; one
 * more client joins blocks:new_block and 99 address topics and stops reading (a slow consumer).
 *
 * Reports: whether every client got every new_block once and in order and every `transaction`
 * event of its address (one per block the address sent or received in); p50/p99 from the
 * commit (the feed's synchronous delivery) to delivery, of every event carrying a height; the
 * server process's RSS; the slow consumer's close code; and the others' p50/p99 before and after
 * it was dropped. By default clients and server share this process (client parsing is in the
 * figures, and in the RSS); SOCKET_SERVER=process runs the server side (store, writes, server) in
 * a child process of its own, driven over IPC, commit and delivery times taken on the machine's
 * clock (performance.timeOrigin + now) in each. Exit code 1 when an event was missed or the slow
 * consumer was not dropped.
 *   npx tsx bench/socket.ts   (CONNECTIONS=1000 ADDRESSES=100 RATE=5 BLOCKS=100 by default)
 *   SOCKET_SERVER=process npx tsx bench/socket.ts
 * `npm run bench` runs it in a process of its own after the HTTP runs (BENCH_SOCKET=0 skips it).
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { createMemoryStore } from '../adapters/memory/index.ts';
import { buildFixtureChain } from '../fixture/index.ts';
import { createServer } from '../host/index.ts';

const CONNECTIONS = Number(process.env.CONNECTIONS ?? 1000);
const ADDRESSES = Number(process.env.ADDRESSES ?? 100);
const RATE = Number(process.env.RATE ?? 5);
const BLOCKS = Number(process.env.BLOCKS ?? 100);
const FIRST = 2;

const chain = buildFixtureChain();
const written = chain.bundles.slice(FIRST, FIRST + BLOCKS);
const heights = written.map((b) => b.block.number);

// the addresses that send or receive in most of the written blocks
const lower = (a: string): string => a.toLowerCase();
const partiesOf = (b: (typeof written)[number]): Set<string> => new Set(b.transactions.flatMap((tx) => [lower(tx.from), ...(tx.to === null ? [] : [lower(tx.to)])]));
const activity = new Map<string, number>();
for (const b of written) for (const a of partiesOf(b)) activity.set(a, (activity.get(a) ?? 0) + 1);
// then, to make ADDRESSES, the token transfers' parties (their balance events), then the chain's other parties
for (const b of written) for (const tt of b.tokenTransfers) for (const a of [lower(tt.from), lower(tt.to)]) if (!activity.has(a)) activity.set(a, 0);
for (const b of chain.bundles) for (const a of [...partiesOf(b), ...b.tokenTransfers.flatMap((tt) => [lower(tt.from), lower(tt.to)])]) if (!activity.has(a)) activity.set(a, 0);
// the fixture has fewer parties than 100: quiet topics (never-seen addresses) make up the rest
for (let i = 1; activity.size < ADDRESSES; i++) activity.set(`0x${'5'.repeat(32)}${i.toString(16).padStart(8, '0')}`, 0);
const addresses = [...activity.entries()].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).slice(0, ADDRESSES).map(([a]) => a);
/** `transaction` events each address topic should get: one per block it is a party of */
const expectedTxEvents = new Map(addresses.map((a) => [a, activity.get(a) ?? 0]));

/** epoch milliseconds at sub-millisecond resolution, comparable across this machine's processes */
const now = (): number => performance.timeOrigin + performance.now();

/** The server's side: the store, the server, the writes, its process's RSS and whether it dropped the slow consumer. */
interface ServerSide {
  readonly url: string;
  /** write the blocks at RATE, one write per block; resolves when the last is committed */
  write(): Promise<void>;
  /** the commit time of each written height (the feed delivers synchronously after each commit) */
  committed(): Promise<ReadonlyMap<number, number>>;
  /** when the server's metrics first showed the slow consumer dropped (null: not yet), sampled every 100 ms */
  dropped(): Promise<number | null>;
  /** the server process's RSS: at start, when the clients were connected, its peak, now */
  rss(): Promise<{ start: number; connected: number; peak: number; end: number }>;
  /** the clients are connected: the RSS sample "connected" is taken */
  connected(): Promise<void>;
  close(): Promise<void>;
}

async function serveHere(): Promise<ServerSide> {
  const store = createMemoryStore();
  await store.writeBlocks(chain.bundles.slice(0, FIRST));
  const committedAt = new Map<number, number>();
  store.feed.subscribe((change) => {
    if (change.blocks !== null) for (let h = change.blocks.from; h <= change.blocks.to; h++) committedAt.set(h, now());
  });
  const plan = { name: 'bench', requestsPerSecond: 1_000_000, credits: 1_000_000_000, creditPeriod: 'month' } as const;
  const server = createServer({
    chains: { '1': { store, feed: store.feed } },
    log: false,
    docs: false,
    anonymousPlan: plan,
    socket: { maxConnectionsPerCaller: CONNECTIONS + 10, maxTopicsPerCaller: CONNECTIONS * 3 + 200, maxBufferedBytes: 64 * 1024 },
  });
  const { port } = await server.listen(0);
  const rss = { start: process.memoryUsage().rss, connected: 0, peak: 0, end: 0 };
  let dropAt: number | null = null;
  const isDropped = async (): Promise<boolean> => /scoutkit_socket_drops_total\{reason="slow"\} 1/.test((await server.metrics?.text()) ?? '');
  const sampler = setInterval(() => {
    rss.peak = Math.max(rss.peak, process.memoryUsage().rss);
    if (dropAt === null) void isDropped().then((yes) => yes && dropAt === null && (dropAt = now()));
  }, 100);
  return {
    url: `ws://127.0.0.1:${port}/socket/v2/websocket?vsn=2.0.0`,
    async write() {
      const started = performance.now();
      for (const [k, bundle] of written.entries()) {
        const wait = started + (k * 1000) / RATE - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        await store.writeBlocks([bundle]);
      }
    },
    committed: () => Promise.resolve(committedAt),
    async dropped() {
      if (dropAt === null && (await isDropped())) dropAt = now();
      return dropAt;
    },
    rss: () => Promise.resolve({ ...rss, peak: Math.max(rss.peak, rss.connected), end: process.memoryUsage().rss }),
    connected() {
      rss.connected = process.memoryUsage().rss;
      return Promise.resolve();
    },
    async close() {
      clearInterval(sampler);
      await server.close();
    },
  };
}

/** SOCKET_SERVER=process: the server side in a child process (this file, SOCKET_ROLE=server), driven over IPC. */
type Call = 'write' | 'committed' | 'dropped' | 'rss' | 'connected' | 'close';
interface Reply {
  readonly id: number;
  readonly value: unknown;
}

async function serveInChild(): Promise<ServerSide> {
  const child = fork(fileURLToPath(import.meta.url), [], { execArgv: ['--import', 'tsx'], env: { ...process.env, SOCKET_ROLE: 'server' }, stdio: 'inherit' });
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let next = 0;
  let exited: Error | null = null;
  // a server process that dies fails every call waiting on it (and the start), rather than leaving it hanging
  child.once('exit', (code) => {
    exited = new Error(`the server process exited (${code})`);
    for (const p of pending.values()) p.reject(exited);
    pending.clear();
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { url: string }).url));
    child.once('exit', () => reject(exited ?? new Error('the server process exited')));
  });
  child.on('message', (m) => {
    const { id, value } = m as Reply;
    pending.get(id)?.resolve(value);
    pending.delete(id);
  });
  const call = <T>(name: Call): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (exited !== null) return reject(exited);
      const id = ++next;
      pending.set(id, { resolve: (v) => resolve(v as T), reject });
      child.send({ id, name });
    });
  return {
    url,
    write: () => call('write'),
    committed: async () => new Map(await call<[number, number][]>('committed')),
    dropped: () => call('dropped'),
    rss: () => call('rss'),
    connected: () => call('connected'),
    async close() {
      await call('close');
      child.disconnect();
    },
  };
}

interface Client {
  readonly ws: WebSocket;
  readonly heights: number[];
  txEvents: number;
  messages: number;
  readonly address: string;
}
/** [delivered at, height] of every measured delivery (latencies are taken at the end: a commit time may come over IPC after its events) */
const deliveries: [number, number][] = [];

type Frame = [unknown, unknown, string, string, { block?: { height: number }; transactions?: { block_number: number | null }[] }];

function client(url: string, topics: readonly string[], address: string, measured: boolean): Promise<Client> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const c: Client = { ws, heights: [], txEvents: 0, messages: 0, address };
    let joined = 0;
    ws.on('message', (data) => {
      const [, , topic, event, payload] = JSON.parse(String(data)) as Frame;
      if (event === 'phx_reply') {
        if (++joined === topics.length) resolve(c);
        return;
      }
      c.messages++;
      let height: number | null | undefined;
      if (topic === 'blocks:new_block' && event === 'new_block' && payload.block) {
        height = payload.block.height;
        c.heights.push(height);
      } else if (event === 'transaction' && topic === `addresses:${address}`) {
        c.txEvents++;
        height = payload.transactions?.[0]?.block_number;
      }
      if (measured && height !== null && height !== undefined) deliveries.push([now(), height]);
    });
    ws.on('error', reject);
    ws.on('open', () => topics.forEach((topic, i) => ws.send(JSON.stringify([String(i + 1), String(i + 1), topic, 'phx_join', {}]))));
  });
}

async function runClients(side: ServerSide): Promise<void> {
  const clients: Client[] = [];
  for (let i = 0; i < CONNECTIONS; i += 50) {
    const group = Array.from({ length: Math.min(50, CONNECTIONS - i) }, (_, k) => {
      const address = addresses[(i + k) % addresses.length] as string;
      return client(side.url, ['blocks:new_block', `addresses:${address}`], address, true);
    });
    clients.push(...(await Promise.all(group)));
  }
  const slow = await client(side.url, ['blocks:new_block', ...addresses.slice(0, 99).map((a) => `addresses:${a}`)], addresses[0] as string, false);
  (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();
  // the slow client reads nothing, so its close frame waits in its socket: the drop is seen in the metrics
  const slowClosed = new Promise<number>((resolve) => slow.ws.on('close', (code) => resolve(code)));
  const heartbeat = setInterval(() => {
    for (const c of clients) c.ws.send('[null,"h","phoenix","heartbeat",{}]');
  }, 30_000);
  await side.connected();
  const started = now();
  await side.write();
  const complete = (c: Client): boolean => c.heights.length >= heights.length && c.txEvents >= (expectedTxEvents.get(c.address) ?? 0);
  const deadline = Date.now() + 30_000;
  while (!clients.every(complete) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const rss = await side.rss();
  const committedAt = await side.committed();
  const dropAt = (await side.dropped()) ?? Infinity;

  const pct = (xs: readonly number[], p: number): number => {
    const sorted = [...xs].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
  };
  const ms = (x: number): string => (Number.isNaN(x) ? '–' : x.toFixed(1));
  const blocksOk = clients.filter((c) => c.heights.length === heights.length && c.heights.every((h, i) => h === heights[i])).length;
  const txOk = clients.filter((c) => c.txEvents === (expectedTxEvents.get(c.address) ?? 0)).length;
  const expectedTx = clients.reduce((n, c) => n + (expectedTxEvents.get(c.address) ?? 0), 0);
  const gotTx = clients.reduce((n, c) => n + c.txEvents, 0);
  /** [delivered at, commit → delivery] */
  const latencies = deliveries.flatMap(([at, height]): [number, number][] => {
    const committed = committedAt.get(height);
    return committed === undefined ? [] : [[at, at - committed]];
  });
  const all = latencies.map(([, l]) => l);
  const before = latencies.filter(([at]) => at < dropAt).map(([, l]) => l);
  const after = latencies.filter(([at]) => at >= dropAt).map(([, l]) => l);
  const dropped = dropAt !== Infinity;
  // let it read now: the close frame it was sent
  (slow.ws as unknown as { _socket: { resume(): void } })._socket.resume();
  const closeCode = dropped ? await Promise.race([slowClosed, new Promise<null>((r) => setTimeout(() => r(null), 5000))]) : null;
  const mb = (x: number): string => `${Math.round(x / 1e6)} MB`;
  const own = process.env.SOCKET_SERVER === 'process';

  const rows: [string, string][] = [
    ['connections (each: blocks:new_block + 1 of the address topics)', `${CONNECTIONS} (+1 slow: blocks:new_block + 99 addresses)`],
    ['address topics', `${addresses.length} (${addresses.filter((a) => !a.startsWith(`0x${'5'.repeat(32)}`)).length} parties of the chain, the rest never seen)`],
    ['blocks written, rate', `${heights.length} at ${RATE}/s (memory store, one write per block)`],
    ['server', own ? 'in a process of its own (SOCKET_SERVER=process), the clients in another' : "in the clients' process"],
    ['clients with every new_block once, in order', `${blocksOk} / ${CONNECTIONS}`],
    ['clients with every `transaction` event of their address', `${txOk} / ${CONNECTIONS} (${gotTx} of ${expectedTx} events)`],
    ['messages delivered to the reading clients (all events)', String(clients.reduce((n, c) => n + c.messages, 0))],
    ['commit → delivery, p50 / p99 / max (new_block and transaction)', `${ms(pct(all, 50))} / ${ms(pct(all, 99))} / ${ms(pct(all, 100))} ms (${all.length} deliveries)`],
    ['… while the slow consumer was connected, p50 / p99', `${ms(pct(before, 50))} / ${ms(pct(before, 99))} ms (${before.length})`],
    ['… after it was dropped, p50 / p99', `${ms(pct(after, 50))} / ${ms(pct(after, 99))} ms (${after.length})`],
    ['slow consumer', dropped ? `dropped (seen in /metrics ${ms(dropAt - started)} ms into the writes), close code ${closeCode ?? '(not seen)'}` : 'NOT dropped'],
    [`${own ? 'server process' : 'process'} RSS: start / connected / peak / end`, `${mb(rss.start)} / ${mb(rss.connected)} / ${mb(rss.peak)} / ${mb(rss.end)}`],
  ];
  console.log('\nscoutkit socket bench (bench/socket.ts)\n');
  console.log('| | |\n|---|---|');
  for (const [k, v] of rows) console.log(`| ${k} | ${v} |`);
  const ok = blocksOk === CONNECTIONS && txOk === CONNECTIONS && dropped;
  console.log(`\nsocket: ${ok ? 'OK' : 'FAILED'}: every event delivered ${blocksOk === CONNECTIONS && txOk === CONNECTIONS ? 'yes' : 'NO'}, slow consumer dropped ${dropped ? 'yes' : 'NO'}`);
  clearInterval(heartbeat);
  for (const c of clients) c.ws.terminate();
  slow.ws.terminate();
  await side.close();
  process.exit(ok ? 0 : 1);
}

if (process.env.SOCKET_ROLE === 'server') {
  const side = await serveHere();
  process.on('message', (m) => {
    const { id, name } = m as { id: number; name: Call };
    const answer = async (): Promise<unknown> => (name === 'committed' ? [...(await side.committed())] : side[name]());
    void answer().then((value) => process.send?.({ id, value: value ?? null }, () => name === 'close' && process.exit(0)));
  });
  process.send?.({ url: side.url });
} else {
  await runClients(process.env.SOCKET_SERVER === 'process' ? await serveInChild() : await serveHere());
}

