/**
 * The server's fast path (host/fast.ts) answers as its Koa chain does: the same requests sent to
 * a server with it (the default) and to one without (`fastPath: false`), over the same store and
 * options, get the same status, the same headers in the same order (but `Date`, and the
 * time-dependent `x-ratelimit-reset`) and the same bytes — many routes, with and without a key, a
 * wrong key, the multichain form, an unknown chain, every `Accept-Encoding` variant, a CORS
 * origin, a preflight, HEAD, 404, 405, 401, 403, 422, 429 and 402 — and leave the same metrics
 * and log lines. Plain reads never reach Koa on the fast server; everything else does.
 */
import http from 'node:http';
import t from 'tap';
import type { Test } from 'tap';
import { createServer } from '../../host/index.ts';
import type { Plan, RequestLogLine, ScoutkitServer, ServerOptions } from '../../host/index.ts';
import { fixtureChains } from './helpers.ts';

const { chain1, chain5, facts } = await fixtureChains();

const KEY = 'fast-key';
const SMALL_KEY = 'small-key';
const POOR_KEY = 'poor-key';
const SECRET = 'sesame';
// a day's window: no window ends between a request to one server and the same to the other
const big = (name: string): Plan => ({ name, requests: 1_000_000, windowSeconds: 86_400, credits: 1_000_000_000, creditPeriod: 'month' });

interface Served {
  readonly server: ScoutkitServer;
  readonly url: string;
  readonly logs: RequestLogLine[];
  /** Koa contexts made (requests that reached the Koa chain) */
  koa: number;
}

async function start(fastPath: boolean, extra: Partial<ServerOptions> = {}): Promise<Served> {
  const logs: RequestLogLine[] = [];
  const server = createServer({
    chains: { '1': chain1, '5': chain5 },
    keys: [
      { key: KEY, name: 'app', plan: big('paid') },
      { key: SMALL_KEY, plan: { name: 'small', requestsPerSecond: 2, credits: 1_000_000, creditPeriod: 'month' } },
      { key: POOR_KEY, name: 'poor', plan: { name: 'poor', requests: 1000, windowSeconds: 86_400, credits: 3, creditPeriod: 'day' } },
    ],
    anonymousPlan: big('anon'),
    restrictedAddresses: [facts.eoas.alice],
    secretKey: SECRET,
    log: (line) => logs.push(line),
    metrics: { processMetrics: false },
    socket: false,
    fastPath,
    ...extra,
  });
  const served: Served = { server, url: '', logs, koa: 0 };
  const made = server.app.createContext.bind(server.app);
  server.app.createContext = (req, res) => {
    served.koa++;
    return made(req, res);
  };
  const { url } = await server.listen(0, '127.0.0.1');
  t.teardown(() => server.close());
  return Object.assign(served, { url });
}

interface Raw {
  readonly status: number;
  readonly message: string;
  /** name, value, … as sent */
  readonly headers: readonly string[];
  readonly body: Buffer;
}

function send(base: string, path: string, method: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, message: res.statusMessage ?? '', headers: res.rawHeaders, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The headers as compared: `Date` and `x-ratelimit-reset` (the time left in a window) by name only. */
const comparable = (headers: readonly string[]): string[] =>
  headers.map((v, i) => (i % 2 === 1 && /^(date|x-ratelimit-reset)$/i.test(headers[i - 1] ?? '') ? '…' : v));

const fast = await start(true);
const plain = await start(false);

/** One request to both servers (the fast one first), compared. */
async function same(tt: Test, path: string, method = 'GET', headers: Record<string, string> = {}): Promise<Raw> {
  const a = await send(fast.url, path, method, headers);
  const b = await send(plain.url, path, method, headers);
  const what = `${method} ${path} ${JSON.stringify(headers)}`;
  tt.same([a.status, a.message, comparable(a.headers)], [b.status, b.message, comparable(b.headers)], `${what}: status and headers`);
  tt.ok(a.body.equals(b.body), `${what}: the same ${a.body.length} bytes`);
  return a;
}

const tx = facts.transactions.eip1559;
const PATHS = [
  '/api/v2/blocks',
  `/api/v2/blocks/${facts.headBlockNumber}`,
  '/api/v2/blocks/not-a-block',
  `/api/v2/transactions/${tx}`,
  `/api/v2/transactions/0x${'00'.repeat(32)}`,
  '/api/v2/transactions?filter=validated',
  `/api/v2/addresses/${facts.hotAddress}`,
  `/api/v2/addresses/${facts.hotAddress}/token-transfers?type=ERC-20&type=ERC-721`,
  `/api/v2/addresses/${facts.unknownAddress}`,
  `/api/v2/addresses/${facts.eoas.alice}`,
  `/api/v2/addresses/${facts.eoas.alice.toUpperCase().replace('0X', '0x')}?key=${SECRET}`,
  `/api/v2/addresses/${facts.eoas.alice}?key=wrong`,
  '/api/v2/token-transfers',
  `/api/v2/tokens/${facts.tokens.erc20}`,
  `/api/v2/tokens/${facts.tokens.erc20}/holders/csv`,
  // (not /api/v2/stats: its gas_prices_update_in counts the milliseconds to the next minute at each render)
  '/api/v2/main-page/blocks',
  '/api/v2/search?q=%E2%82%AC%zz',
  '/api/v2/no-such-route',
  '/api/v2/openapi.json',
  '/API/V2/BLOCKS',
  '/1/api/v2/blocks',
  '/5/api/v2/blocks',
  '/7/api/v2/blocks',
  '/api/eth-rpc?module=block',
  '/api?module=block&action=eth_block_number',
  '/health',
  '/nowhere',
];
const HEADERS: readonly Record<string, string>[] = [
  {},
  { 'x-api-key': KEY },
  { authorization: `Bearer ${KEY}`, 'accept-encoding': 'gzip, br' },
  { 'x-api-key': 'not-a-key' },
  { 'accept-encoding': 'gzip' },
  { 'accept-encoding': 'br', 'x-api-key': KEY },
  { 'accept-encoding': 'br;q=0, gzip;q=0.5' },
  { 'accept-encoding': 'identity' },
  { 'accept-encoding': '*;q=0' },
  { 'accept-encoding': 'deflate, gzip;q=0.1, br;q=0.9', origin: 'https://app.example' },
  { origin: 'https://app.example', 'x-api-key': KEY },
];

t.test('every route, key and encoding: the same answer, twice (the second a cache hit)', async (t) => {
  for (const path of PATHS) {
    for (const headers of HEADERS) {
      for (const method of ['GET', 'HEAD', 'GET']) await same(t, path, method, headers);
    }
  }
  await same(t, `/api/v2/transactions/${tx}?apikey=${KEY}`);
  await same(t, '/api/v2/blocks', 'POST', { 'x-api-key': KEY });
  await same(t, '/api/v2/blocks', 'OPTIONS', { origin: 'https://app.example', 'access-control-request-method': 'GET' });
  await same(t, '/api/v2/blocks', 'OPTIONS');
});

t.test('429 (with retry-after) and 402: the same limiter answers on both paths', async (t) => {
  for (let i = 0; i < 5; i++) await same(t, '/api/v2/blocks', 'GET', { 'x-api-key': SMALL_KEY, 'accept-encoding': 'gzip' });
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++) statuses.push((await same(t, `/api/v2/transactions/${tx}`, 'GET', { 'x-api-key': POOR_KEY })).status);
  t.same(statuses, [200, 200, 200, 402, 402], 'credits spent, then 402');
});

t.test('the fast path took the plain reads; Koa the rest', async (t) => {
  const before = { fast: fast.koa, plain: plain.koa };
  await same(t, '/api/v2/blocks', 'GET', { 'x-api-key': KEY });
  await same(t, `/api/v2/transactions/${tx}`, 'HEAD', { 'accept-encoding': 'br' });
  t.equal(fast.koa, before.fast, 'no Koa context on the fast server');
  t.equal(plain.koa, before.plain + 2, 'the plain server: Koa for both');
  await same(t, '/api/v2/openapi.json');
  await same(t, '/health');
  t.equal(fast.koa, before.fast + 2, 'the document and /health: Koa');
});

t.test('the same metrics and log lines', async (t) => {
  const lines = async (s: Served) =>
    (await s.server.metrics?.text())
      ?.split('\n')
      .filter((l) => /^scoutkit_(http_requests_total|limiter_rejections_total|http_request_duration_seconds_count)\{/.test(l))
      .sort();
  const counted = await lines(fast);
  t.ok((counted?.length ?? 0) > 20, 'requests counted by endpoint, chain and status');
  t.same(counted, await lines(plain), 'the same counts');
  const strip = (l: RequestLogLine) => ({ ...l, time: '', ms: 0 });
  t.equal(fast.logs.length, plain.logs.length);
  t.same(fast.logs.map(strip), plain.logs.map(strip), 'the same log lines (but time and ms)');
  t.ok(
    fast.logs.some((l) => l.key === 'app' && l.chain === '1' && l.status === 200),
    'a keyed request is logged with its key name',
  );
});

t.test('a server with listed origins, or its own middleware added: Koa answers all, the same', async (t) => {
  const listed = await start(true, { cors: { origins: ['https://app.example'] } });
  const reference = await start(false, { cors: { origins: ['https://app.example'] } });
  const a = await send(listed.url, '/api/v2/blocks', 'GET', { origin: 'https://app.example' });
  const b = await send(reference.url, '/api/v2/blocks', 'GET', { origin: 'https://app.example' });
  t.same(comparable(a.headers), comparable(b.headers));
  t.equal(listed.koa, 1, 'through Koa');
  fast.server.app.use((ctx) => {
    ctx.status = 418;
  });
  const before = fast.koa;
  await send(fast.url, '/api/v2/blocks', 'GET', {});
  t.equal(fast.koa, before + 1, 'middleware added to app: through Koa');
});
