/**
 * The door through the host, over real HTTP: a test-only POST route with a JSON, a urlencoded
 * and a multipart body (busboy), 422 and 413 answers, 405 for another method; upgrade requests
 * judged by the same steps (401, 429, 404, allowed); the server's http.Server and `attach`.
 */
import { once } from 'node:events';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import type { Test } from 'tap';
import { createExplorer } from '../../lib/index.ts';
import { createServer, refuseUpgrade } from '../../host/index.ts';
import type { ScoutkitServer } from '../../host/index.ts';
import type { Plan } from '../../host/plans.ts';
import { fixtureChains, limitHeaders, request } from './helpers.ts';
import { NOTE_MAX_BYTES, TEST_ENDPOINTS } from '../support/postEndpoint.ts';

const { chain1 } = await fixtureChains();
const PLAN: Plan = { name: 'p', requestsPerSecond: 1000, credits: 100_000, creditPeriod: 'day' };
const TIGHT: Plan = { name: 'tight', requestsPerSecond: 2, credits: 100_000, creditPeriod: 'day' };
const KEYS = { 'x-api-key': 'k' };

async function served(t: Test): Promise<{ url: string; server: ScoutkitServer }> {
  const server = createServer({
    chains: { '1': chain1 },
    explorer: createExplorer({ chains: { '1': chain1 }, endpoints: TEST_ENDPOINTS }),
    keys: [
      { key: 'k', plan: PLAN },
      { key: 'tight', plan: TIGHT },
    ],
    log: false,
    docs: false,
    metrics: false,
  });
  const { url } = await server.listen(0);
  t.teardown(() => server.close());
  return { url, server };
}

t.test('a POST route through the middleware: JSON, urlencoded and multipart bodies', async (t) => {
  const { url } = await served(t);
  const notes = `${url}/api/v2/test/notes`;
  const json = await request(`${notes}/alice`, { method: 'POST', headers: { ...KEYS, 'content-type': 'application/json' }, body: JSON.stringify({ greeting: 'hello', count: 3 }) });
  t.equal(json.status, 200);
  t.same(json.json, { chain: '1', store: true, name: 'alice', greeting: 'hello', count: 3, attachment: null });
  t.equal(limitHeaders(json).limit, 1000, 'charged and limited as any request');

  const form = await request(`${notes}/bob`, { method: 'POST', headers: KEYS, body: new URLSearchParams({ greeting: 'hi there', count: '12' }) });
  t.equal(form.status, 200);
  t.same(form.json, { chain: '1', store: true, name: 'bob', greeting: 'hi there', count: 12, attachment: null }, 'a urlencoded form');

  const multipart = new FormData();
  multipart.append('greeting', 'yo');
  multipart.append('attachment', new Blob(['contract Note {}'], { type: 'text/plain' }), 'Note.sol');
  const upload = await request(`${notes}/carol`, { method: 'POST', headers: KEYS, body: multipart });
  t.equal(upload.status, 200);
  t.same(upload.json, {
    chain: '1',
    store: true,
    name: 'carol',
    greeting: 'yo',
    count: null,
    attachment: { filename: 'Note.sol', contentType: 'text/plain', text: 'contract Note {}' },
  }, 'a multipart form with a file field');
});

t.test('bad bodies: 422 from the one error table, 413 over the cap (declared or streamed)', async (t) => {
  const { url } = await served(t);
  const at = `${url}/api/v2/test/notes/alice`;
  const post = (body: RequestInit['body'], type?: string) =>
    request(at, { method: 'POST', headers: { ...KEYS, ...(type ? { 'content-type': type } : {}) }, ...(body !== undefined ? { body } : {}) });

  const bad = await post(JSON.stringify({ count: 'many' }), 'application/json');
  t.equal(bad.status, 422);
  t.same(bad.json, {
    errors: [
      { title: 'Invalid value', source: { pointer: '/greeting' }, detail: 'Missing field: greeting' },
      { title: 'Invalid value', source: { pointer: '/count' }, detail: 'expected digits' },
    ],
  });
  const broken = await post('{"greeting":', 'application/json');
  t.equal(broken.status, 422);
  t.match((broken.json as { errors: { detail: string }[] }).errors[0]?.detail, /^Invalid JSON: /);
  const text = await post('greeting', 'text/plain');
  t.equal(text.status, 422);
  t.match((text.json as { errors: { detail: string }[] }).errors[0]?.detail, /^Unsupported content type: text\/plain/);
  const empty = await post(undefined);
  t.same(empty.json, { errors: [{ title: 'Invalid value', source: { pointer: '/' }, detail: 'Missing body' }] });

  const big = await post(JSON.stringify({ greeting: 'x'.repeat(NOTE_MAX_BYTES) }), 'application/json');
  t.equal(big.status, 413);
  t.same(big.json, { message: `Request body too large: at most ${NOTE_MAX_BYTES} bytes` });
  t.equal(limitHeaders(big).limit, 1000, 'with the limit headers');
  const bigForm = new FormData();
  bigForm.append('greeting', 'x');
  bigForm.append('attachment', new Blob(['y'.repeat(NOTE_MAX_BYTES * 4)]), 'big.sol');
  t.equal((await request(at, { method: 'POST', headers: KEYS, body: bigForm })).status, 413, 'a multipart body over the cap');

  // no content-length: the cap is counted as the body streams
  const chunks = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < 8; i++) controller.enqueue(new TextEncoder().encode('a'.repeat(512)));
      controller.close();
    },
  });
  const streamed = await fetch(at, { method: 'POST', headers: { ...KEYS, 'content-type': 'application/json' }, body: chunks, duplex: 'half' } as RequestInit);
  t.equal(streamed.status, 413, 'a chunked body over the cap');
  await streamed.text();
});

t.test('methods: 405 with allow for a path known under another method; keys before bodies', async (t) => {
  const { url } = await served(t);
  const get = await request(`${url}/api/v2/test/notes/alice`, { headers: KEYS });
  t.equal(get.status, 405);
  t.equal(get.headers.get('allow'), 'POST');
  t.same(get.json, { message: 'Method not allowed' });
  const postOnGet = await request(`${url}/api/v2/blocks`, { method: 'POST', headers: KEYS, body: '{}' });
  t.equal(postOnGet.status, 405, 'a GET route refuses a POST as before');
  t.equal(postOnGet.headers.get('allow'), 'GET, HEAD');
  t.equal((await request(`${url}/api/v2/test/nothing`, { method: 'POST', headers: KEYS, body: '{}' })).status, 404);
  const badKey = await request(`${url}/api/v2/test/notes/alice`, {
    method: 'POST',
    headers: { 'x-api-key': 'wrong', 'content-type': 'application/json' },
    body: JSON.stringify({ greeting: 'x'.repeat(NOTE_MAX_BYTES * 2) }),
  });
  t.equal(badKey.status, 401, 'refused by the steps before its body is read');
  t.equal((await request(`${url}/api/v2/blocks`, { headers: KEYS })).status, 200, 'GET routes as before');
});

/** An upgrade request to `path`: the status and headers the server answered, and its body. */
async function upgrade(url: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: IncomingHttpHeaders; body: unknown }> {
  const req = httpRequest(`${url}${path}`, { headers: { connection: 'Upgrade', upgrade: 'test-protocol', ...headers } });
  req.end();
  return new Promise((resolve, reject) => {
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body: null });
    });
    req.on('response', async (res) => {
      let text = '';
      for await (const chunk of res) text += String(chunk);
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) });
    });
    req.on('error', reject);
  });
}

t.test('an upgrade request is judged by the same steps (no socket protocol yet)', async (t) => {
  const { url, server } = await served(t);
  t.ok(server.http?.listening, 'the http.Server, once listening');
  // what a socket implementation would do: judge, then refuse or switch
  server.http?.on('upgrade', (req, socket) => {
    void server.judgeUpgrade(req).then((verdict) => {
      if (!verdict.allow) return refuseUpgrade(socket, verdict);
      const headers = Object.entries(verdict.headers).map(([name, value]) => `${name}: ${value}\r\n`);
      socket.end(`HTTP/1.1 101 Switching Protocols\r\nconnection: Upgrade\r\nupgrade: test-protocol\r\nx-endpoint: ${verdict.info.endpoint}\r\n${headers.join('')}\r\n`);
    });
  });

  const allowed = await upgrade(url, '/api/v2/blocks', KEYS);
  t.equal(allowed.status, 101);
  t.equal(allowed.headers['x-endpoint'], 'blocks', 'routed as a GET to its path');
  t.equal(allowed.headers['x-ratelimit-limit'], '1000', 'charged on the plan of its key');

  const badKey = await upgrade(url, '/api/v2/blocks', { 'x-api-key': 'wrong' });
  t.equal(badKey.status, 401);
  t.same(badKey.body, { message: 'Invalid API key' });
  t.ok(badKey.headers['x-ratelimit-limit'] !== undefined, 'with the limit headers');
  const noKey = await upgrade(url, '/1/api/v2/blocks');
  t.equal(noKey.status, 401);
  t.same(noKey.body, { message: 'API key required' });
  t.equal((await upgrade(url, '/9/api/v2/blocks', KEYS)).status, 404, 'an unknown chain');
  t.equal((await upgrade(url, '/api/v2/nothing', KEYS)).status, 404, 'an unknown path');
  const post = await upgrade(url, '/api/v2/test/notes/x', KEYS);
  t.equal(post.status, 405, 'a path with no GET route');
  t.equal(post.headers['allow'], 'POST');
  t.equal((await upgrade(url, '/1/json-rpc', KEYS)).status, 101, 'the JSON-RPC path');
  t.equal((await upgrade(url, '/1/api/v2/blocks?apikey=k')).status, 101, 'a key in the query string');

  // the limit is the one of HTTP requests: two per second on this plan
  const tight = { 'x-api-key': 'tight' };
  t.equal((await request(`${url}/api/v2/blocks`, { headers: tight })).status, 200, 'an HTTP request');
  t.equal((await upgrade(url, '/api/v2/blocks', tight)).status, 101, 'an upgrade');
  const over = await upgrade(url, '/api/v2/blocks', tight);
  t.equal(over.status, 429, 'the third in the second, HTTP or upgrade');
  t.same(over.body, { message: 'Too many requests' });
  t.equal(over.headers['x-ratelimit-remaining'], '0');
});

t.test('attach: the server serves an http.Server its user owns', async (t) => {
  const server = createServer({ chains: { '1': chain1 }, log: false, docs: false, metrics: false });
  const owned = createHttpServer();
  server.attach(owned);
  t.equal(server.http, owned);
  t.throws(() => server.attach(createHttpServer()), /already/);
  owned.listen(0, '127.0.0.1');
  await once(owned, 'listening');
  const { port } = owned.address() as AddressInfo;
  const reply = await request(`http://127.0.0.1:${port}/api/v2/blocks`);
  t.equal(reply.status, 200);
  t.equal((await request(`http://127.0.0.1:${port}/health`)).status, 200);
  await server.close();
  t.notOk(owned.listening, 'close() closes it as its own');

  const viaCallback = createHttpServer(server.callback());
  viaCallback.listen(0, '127.0.0.1');
  await once(viaCallback, 'listening');
  const second = await request(`http://127.0.0.1:${(viaCallback.address() as AddressInfo).port}/api/v2/blocks`);
  t.equal(second.status, 200, "callback(): Koa's request listener");
  viaCallback.close();
  viaCallback.closeAllConnections();
});
