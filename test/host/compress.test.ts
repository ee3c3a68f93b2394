/**
 * Answers as bytes, compressed once (host/compress.ts): gzip, brotli and identity decode to the
 * plain answer; `Vary: Accept-Encoding`; q-values and `identity` are honoured; HEAD; a cached
 * answer's compressed form is made once across many requests; uncached answers below the
 * threshold go as they are; a CSV export is compressed on the fly; errors stay JSON and the
 * limit headers stay on; `compress: false` turns it off.
 */
import http from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import zlib from 'node:zlib';
import t from 'tap';
import type { Test } from 'tap';
import Koa from 'koa';
import { createExplorer } from '../../lib/index.ts';
import { createServer, explorerMiddleware } from '../../host/index.ts';
import type { CompressEvent, ExplorerMiddlewareOptions, Plan } from '../../host/index.ts';
import { fixtureChains, listen } from './helpers.ts';
import type { Listening } from './helpers.ts';

const { chain1, facts } = await fixtureChains();

const ANON: Plan = { name: 'anon', requestsPerSecond: 10_000, credits: 1_000_000, creditPeriod: 'day' };

async function serve(t: Test, options: ExplorerMiddlewareOptions = {}): Promise<Listening & { events: CompressEvent[] }> {
  const events: CompressEvent[] = [];
  const app = new Koa();
  app.silent = true;
  const compress = options.compress === false ? false : { ...options.compress, onCompress: (e: CompressEvent) => events.push(e) };
  app.use(explorerMiddleware(createExplorer({ chains: { '1': chain1 } }), { anonymousPlan: ANON, ...options, compress }));
  const s = await listen(app);
  t.teardown(() => s.close());
  return { ...s, events };
}

interface Raw {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** the bytes as sent */
  readonly raw: Buffer;
  /** decoded as content-encoding says */
  readonly text: string;
}

/** A request with exactly these headers (fetch would add and strip its own accept-encoding). */
function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        const plain = raw.length === 0 ? raw : encoding === 'gzip' ? zlib.gunzipSync(raw) : encoding === 'br' ? zlib.brotliDecompressSync(raw) : raw;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, raw, text: plain.toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const LIST = '/api/v2/transactions';

t.test('gzip, brotli and identity decode to the same answer; Vary on each', async (t) => {
  const s = await serve(t);
  const plain = await get(`${s.url}${LIST}`);
  t.equal(plain.status, 200);
  t.equal(plain.headers['content-encoding'], undefined, 'no Accept-Encoding: as it is');
  t.ok(plain.raw.length >= 1024, `a list page is above the threshold (${plain.raw.length} bytes)`);
  t.equal(Number(plain.headers['content-length']), plain.raw.length, 'content-length of the bytes');
  t.match(plain.headers['vary'], /accept-encoding/i);
  for (const [accept, expected] of [
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'gzip'],
    ['br;q=1, gzip;q=0.5', 'br'],
    ['gzip;q=0.2, br;q=0.9', 'br'],
    ['identity', undefined],
    ['gzip;q=0, br;q=0', undefined],
    ['deflate', undefined],
    ['*', 'br'],
  ] as const) {
    const r = await get(`${s.url}${LIST}`, { 'accept-encoding': accept });
    t.equal(r.headers['content-encoding'], expected, `Accept-Encoding: ${accept}`);
    t.equal(r.text, plain.text, `${accept}: the same answer`);
    t.match(r.headers['vary'], /accept-encoding/i);
    t.equal(r.headers['content-type'], 'application/json; charset=utf-8');
    if (expected !== undefined) t.ok(r.raw.length < plain.raw.length / 2, `${expected} is smaller (${r.raw.length} < ${plain.raw.length})`);
  }
});

t.test("a cached answer's compressed form is made once across many requests", async (t) => {
  const s = await serve(t);
  const url = `${s.url}/api/v2/transactions/${facts.transactions.eip1559}`;
  const plain = await get(url);
  const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => get(url, { 'accept-encoding': i % 2 === 0 ? 'gzip' : 'br' })));
  for (let i = 0; i < 8; i++) answers.push(await get(url, { 'accept-encoding': 'gzip, br' }));
  for (const r of answers) t.equal(r.text, plain.text);
  const made = s.events.filter((e) => e.kind === 'cached');
  t.same(made.map((e) => e.encoding).sort(), ['br', 'gzip'], 'one gzip and one brotli form for 20 requests');
  t.equal(s.events.filter((e) => e.kind === 'request').length, 0, 'nothing compressed per request');
  const gz = answers.filter((r) => r.headers['content-encoding'] === 'gzip');
  t.ok(gz.length > 1 && gz.every((r) => r.raw.equals(gz[0]?.raw ?? Buffer.alloc(0))), 'the same bytes on each hit');
});

t.test('uncached answers compress from the threshold; HEAD; compress: false', async (t) => {
  // no cache: every answer is compressed per request, when at least `threshold` bytes
  const events: CompressEvent[] = [];
  const app = new Koa();
  app.silent = true;
  const explorer = createExplorer({ chains: { '1': chain1 }, cache: { maxEntries: 0 } });
  app.use(explorerMiddleware(explorer, { anonymousPlan: ANON, compress: { threshold: 4000, onCompress: (e) => events.push(e) } }));
  const s = await listen(app);
  t.teardown(() => s.close());
  const small = await get(`${s.url}/api/v2/transactions/${facts.transactions.eip1559}`, { 'accept-encoding': 'gzip' });
  t.ok(small.raw.length < 4000, `a detail (${small.raw.length} bytes) is below 4000`);
  t.equal(small.headers['content-encoding'], undefined, 'below the threshold: as it is');
  t.match(small.headers['vary'], /accept-encoding/i);
  const big = await get(`${s.url}${LIST}`, { 'accept-encoding': 'gzip' });
  const again = await get(`${s.url}${LIST}`, { 'accept-encoding': 'gzip' });
  t.equal(big.headers['content-encoding'], 'gzip');
  t.equal(again.text, big.text);
  t.same(
    events.map((e) => [e.kind, e.encoding]),
    [
      ['request', 'gzip'],
      ['request', 'gzip'],
    ],
    'uncached: compressed per request',
  );
  const head = await get(`${s.url}${LIST}`, { 'accept-encoding': 'gzip' }, 'HEAD');
  t.equal(head.status, 200);
  t.equal(head.raw.length, 0, 'HEAD: no body');
  t.equal(head.headers['content-encoding'], 'gzip', 'HEAD: the headers of the GET');
  t.equal(head.headers['content-length'], big.headers['content-length']);

  const off = await serve(t, { compress: false });
  const r = await get(`${off.url}${LIST}`, { 'accept-encoding': 'gzip, br' });
  t.equal(r.headers['content-encoding'], undefined, 'compress: false');
  t.equal(r.text, big.text);
  t.equal(off.events.length, 0);
});

t.test('a CSV export is compressed on the fly and decodes to the same CSV', async (t) => {
  const s = await serve(t);
  const path = `${s.url}/api/v2/addresses/${facts.hotAddress}/token-transfers/csv?from_period=2000-01-01&to_period=2100-01-01`;
  const plain = await get(path);
  t.equal(plain.status, 200);
  t.match(plain.headers['content-type'], /^text\/csv/);
  t.ok(plain.text.split('\r\n').length > 2, 'rows');
  for (const accept of ['gzip', 'br']) {
    const r = await get(path, { 'accept-encoding': accept });
    t.equal(r.headers['content-encoding'], accept);
    t.equal(r.headers['transfer-encoding'], 'chunked', 'streamed');
    t.match(r.headers['vary'], /accept-encoding/i);
    t.equal(r.text, plain.text, `${accept}: the same CSV`);
  }
  t.same(
    s.events.filter((e) => e.kind === 'stream').map((e) => e.encoding),
    ['gzip', 'br'],
  );
});

t.test('errors stay JSON; the limit headers stay on; the full server compresses too', async (t) => {
  const s = await serve(t, { compress: { threshold: 1 } });
  const bad = await get(`${s.url}/api/v2/transactions/0xnope`, { 'accept-encoding': 'gzip' });
  t.equal(bad.status, 422);
  t.equal(bad.headers['content-type'], 'application/json; charset=utf-8');
  t.equal(typeof JSON.parse(bad.text), 'object', 'a JSON error');
  const missing = await get(`${s.url}/api/v2/transactions/0x${'0'.repeat(64)}`, { 'accept-encoding': 'br' });
  t.equal(missing.status, 404);
  t.same(Object.keys(JSON.parse(missing.text) as object), ['message']);
  const ok = await get(`${s.url}${LIST}`, { 'accept-encoding': 'br' });
  for (const r of [bad, missing, ok]) {
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) t.ok(r.headers[name] !== undefined, `${r.status}: ${name}`);
  }
  t.equal(ok.headers['content-encoding'], 'br');

  const server = createServer({ chains: { '1': chain1 }, log: false, metrics: false, docs: false, anonymousPlan: ANON });
  const { url } = await server.listen(0, '127.0.0.1');
  t.teardown(() => server.close());
  const viaServer = await get(`${url}${LIST}`, { 'accept-encoding': 'gzip' });
  t.equal(viaServer.headers['content-encoding'], 'gzip', 'createServer: on by default');
  t.equal(viaServer.text, ok.text);
  const rpc = await new Promise<Raw>((resolve, reject) => {
    const body = JSON.stringify(Array.from({ length: 40 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'eth_blockNumber', params: [] })));
    const req = http.request(`${url}/api/eth-rpc`, { method: 'POST', headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, raw, text: (res.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(raw) : raw).toString() });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
  t.equal(rpc.status, 200);
  t.equal((JSON.parse(rpc.text) as unknown[]).length, 40, 'a JSON-RPC batch, compressed or not, decodes');
});
