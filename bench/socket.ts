/**
 * The socket under load: CONNECTIONS clients (raw ws, Phoenix V2 frames) each join
 * blocks:new_block and one of 100 address topics, while the fixture chain's blocks are written
 * to a memory store at RATE blocks/s; one more client joins and stops reading (a slow consumer).
 * Reports: every new_block delivered to every client (once, in order), p50/p99 from the write
 * to delivery, the server's RSS, and whether the slow consumer was dropped while the others
 * kept their latency. Clients and server share this process (client parsing is in the figures).
 *   npx tsx bench/socket.ts            (CONNECTIONS=1000 RATE=5 BLOCKS=100 by default)
 */
import WebSocket from 'ws';
import { createMemoryStore } from '../adapters/memory/index.ts';
import { buildFixtureChain } from '../fixture/index.ts';
import { createServer } from '../host/index.ts';

const CONNECTIONS = Number(process.env.CONNECTIONS ?? 1000);
const RATE = Number(process.env.RATE ?? 5);
const BLOCKS = Number(process.env.BLOCKS ?? 100);

const chain = buildFixtureChain();
const store = createMemoryStore();
await store.writeBlocks(chain.bundles.slice(0, 2));
const plan = { name: 'bench', requestsPerSecond: 1_000_000, credits: 1_000_000_000, creditPeriod: 'month' } as const;
const server = createServer({
  chains: { '1': { store, feed: store.feed } },
  log: false,
  docs: false,
  anonymousPlan: plan,
  socket: { maxConnectionsPerCaller: CONNECTIONS + 10, maxTopicsPerCaller: CONNECTIONS * 3, maxBufferedBytes: 64 * 1024 },
});
const { port } = await server.listen(0);
const url = `ws://127.0.0.1:${port}/socket/v2/websocket?vsn=2.0.0`;

const addresses = [...new Set(chain.bundles.flatMap((b) => b.transactions.map((tx) => tx.from.toLowerCase())))].slice(0, 100);
const written = new Map<number, number>(); // height → time of the write
const latencies: number[] = [];
const received: number[][] = [];

function client(i: number): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const heights: number[] = [];
    received.push(heights);
    let joined = 0;
    ws.on('message', (data) => {
      const [, , topic, event, payload] = JSON.parse(String(data)) as [unknown, unknown, string, string, { block?: { height: number } }];
      if (event === 'phx_reply' && ++joined === 2) resolve(ws);
      if (topic === 'blocks:new_block' && event === 'new_block' && payload.block) {
        heights.push(payload.block.height);
        const at = written.get(payload.block.height);
        if (at !== undefined) latencies.push(performance.now() - at);
      }
    });
    ws.on('error', reject);
    ws.on('open', () => {
      ws.send(JSON.stringify(['1', '1', 'blocks:new_block', 'phx_join', {}]));
      ws.send(JSON.stringify(['2', '2', `addresses:${addresses[i % addresses.length]}`, 'phx_join', {}]));
    });
  });
}

const clients: WebSocket[] = [];
for (let i = 0; i < CONNECTIONS; i += 50) clients.push(...(await Promise.all(Array.from({ length: Math.min(50, CONNECTIONS - i) }, (_, k) => client(i + k)))));
const slow = await client(0);
received.pop();
(slow as unknown as { _socket: { pause(): void } })._socket.pause();
let slowClose: number | undefined;
slow.on('close', (code) => (slowClose = code));
const heartbeat = setInterval(() => {
  for (const ws of clients) ws.send('[null,"h","phoenix","heartbeat",{}]');
}, 30_000);

const rssBefore = process.memoryUsage().rss;
const heights = chain.bundles.slice(2, 2 + BLOCKS).map((b) => b.block.number);
const started = performance.now();
for (const [k, bundle] of chain.bundles.slice(2, 2 + BLOCKS).entries()) {
  const due = started + (k * 1000) / RATE;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  written.set(bundle.block.number, performance.now());
  await store.writeBlocks([bundle]);
}
const deadline = Date.now() + 30_000;
while (received.some((r) => r.length < heights.length) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
const rssAfter = process.memoryUsage().rss;

const sorted = [...latencies].sort((a, b) => a - b);
const pct = (p: number): string => (sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN).toFixed(1);
const complete = received.filter((r) => r.length === heights.length && r.every((h, i) => h === heights[i])).length;
const metrics = await server.metrics?.text();
console.log(
  JSON.stringify(
    {
      connections: CONNECTIONS,
      blocks: heights.length,
      rate: RATE,
      clientsWithEveryBlockOnceInOrder: complete,
      deliveries: latencies.length,
      p50ms: pct(50),
      p99ms: pct(99),
      maxms: pct(100),
      rssMB: { before: Math.round(rssBefore / 1e6), after: Math.round(rssAfter / 1e6) },
      slowConsumerDropped: /scoutkit_socket_drops_total\{reason="slow"\} 1/.test(metrics ?? ''),
      slowCloseCode: slowClose ?? null,
    },
    null,
    2,
  ),
);
clearInterval(heartbeat);
for (const ws of clients) ws.terminate();
slow.terminate();
await server.close();
process.exit(0);
