/**
 * CORS over plain HTTP (the browser's view is test/host/cors-browser.test.ts): preflights are
 * 204 before any step (never charged, never 405), every answer of every dialect carries
 * `access-control-allow-origin` (errors and 429s included) and exposes the limit headers; an
 * origin list; `cors: false`; the middleware in someone else's Koa app touches only its own paths.
 * Also the small things beside it: retry-after on 429 and 503, the JSON 404 under the mount
 * prefix, and `servers` in the OpenAPI document as mounted.
 */
import t from 'tap';
import Koa from 'koa';
import { createExplorer } from '../../lib/index.ts';
import type { DataSource } from '../../lib/index.ts';
import { createServer, explorerMiddleware, LIMIT_HEADERS } from '../../host/index.ts';
import type { Plan } from '../../host/index.ts';
import { CORS_ALLOW_HEADERS, CORS_MAX_AGE_SECONDS, parseCorsOrigins } from '../../host/cors.ts';
import { fixtureChains, limitHeaders, listen, request } from './helpers.ts';
import type { Reply } from './helpers.ts';

const { chain1, facts } = await fixtureChains();
const APP = 'http://app.example:5173';
/** two requests a minute per IP: the third is a 429 */
const TWO: Plan = { name: 'two', requests: 2, windowSeconds: 60, credits: 1000, creditPeriod: 'day' };
const BIG: Plan = { name: 'big', requests: 1000, windowSeconds: 1, credits: 100_000, creditPeriod: 'day' };

const preflight = (url: string, method = 'GET', headers = 'x-api-key', origin = APP) =>
  request(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers } });
const from = (url: string, init: RequestInit = {}, origin = APP) =>
  request(url, { ...init, headers: { origin, ...(init.headers as Record<string, string> | undefined) } });
const exposed = (r: Reply): string[] => (r.headers.get('access-control-expose-headers') ?? '').split(',');

t.test('preflights: 204 before anything, for every dialect, never charged, never 405', async (t) => {
  const server = createServer({ chains: { '1': chain1 }, anonymousPlan: TWO, keys: [{ key: 'k', plan: BIG }], log: false, metrics: false });
  const { url } = await server.listen(0);
  t.teardown(() => server.close());
  const paths: [string, string][] = [
    ['/api/v2/blocks', 'GET'],
    ['/1/api/v2/blocks', 'GET'],
    ['/api/eth-rpc', 'POST'],
    ['/1/json-rpc', 'POST'],
    ['/api?module=block&action=eth_block_number', 'GET'],
    ['/api/json/config', 'GET'],
    ['/api/v2/no-such-endpoint', 'GET'],
    ['/health', 'GET'],
  ];
  for (const [path, method] of paths) {
    for (let i = 0; i < 3; i++) {
      const r = await preflight(`${url}${path}`, method, 'x-api-key, content-type, authorization');
      t.equal(r.status, 204, `${path}: 204`);
      if (i > 0) continue;
      t.equal(r.text, '', `${path}: no body`);
      t.equal(r.headers.get('access-control-allow-origin'), '*', `${path}: any origin`);
      t.equal(r.headers.get('access-control-allow-methods'), 'GET,HEAD,POST,OPTIONS');
      const allowed = (r.headers.get('access-control-allow-headers') ?? '').split(',');
      for (const h of ['authorization', 'x-api-key', 'content-type', 'updated-gas-oracle', 'show-scam-tokens']) t.ok(allowed.includes(h), `${path}: allows ${h}`);
      t.equal(r.headers.get('access-control-max-age'), String(CORS_MAX_AGE_SECONDS), 'Blockscout max age');
      t.equal(r.headers.get('x-ratelimit-limit'), null, `${path}: not counted (no limit headers)`);
    }
  }
  // 24 preflights later, the two-a-minute window is untouched
  const first = await from(`${url}/api/v2/blocks`);
  t.equal(first.status, 200);
  t.same([limitHeaders(first).limit, limitHeaders(first).remaining], [2, 1], 'the first request counted is the GET');
  // an OPTIONS that is not a preflight still reaches the API (405 as before, charged as before)
  const bare = await request(`${url}/api/v2/blocks`, { method: 'OPTIONS', headers: { origin: APP } });
  t.equal(bare.status, 405, 'OPTIONS without access-control-request-method: not a preflight');
});

t.test('every answer carries the origin and exposes the limit headers: 200, 401, 404, 422, 429, 503', async (t) => {
  const failing: DataSource = { ...chain1, listBlocks: async () => Promise.reject(new Error('db down')) };
  const server = createServer({
    chains: { '1': chain1, '7': failing },
    anonymousPlan: TWO,
    keys: [{ key: 'k', plan: BIG }],
    log: false,
    metrics: false,
    onStoreError: () => {},
  });
  const { url } = await server.listen(0);
  t.teardown(() => server.close());
  const key = { 'x-api-key': 'k' };
  const cases: [string, RequestInit, number][] = [
    [`/api/v2/blocks/${facts.headBlockNumber}`, { headers: key }, 200],
    ['/1/api/v2/blocks', { headers: { 'x-api-key': 'wrong' } }, 401],
    ['/1/api/v2/blocks', {}, 401],
    ['/api/v2/transactions/0x01', { headers: key }, 422],
    [`/api/v2/transactions/0x${'ab'.repeat(32)}`, { headers: key }, 404],
    ['/api/v2/nothing-here', { headers: key }, 404],
    ['/nothing-at-all', {}, 404],
    ['/7/api/v2/blocks', { headers: key }, 503],
    ['/api/eth-rpc', { method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}' }, 200],
    ['/api?module=block&action=eth_block_number', { headers: key }, 200],
    ['/api/json/config', { headers: key }, 200],
    ['/health', {}, 200],
  ];
  for (const [path, init, status] of cases) {
    const r = await from(`${url}${path}`, init);
    t.equal(r.status, status, `${init.method ?? 'GET'} ${path}: ${status}`);
    t.equal(r.headers.get('access-control-allow-origin'), '*', `${path}: allow-origin`);
    for (const h of LIMIT_HEADERS) t.ok(exposed(r).includes(h), `${path}: exposes ${h}`);
    t.ok(exposed(r).includes('retry-after'), `${path}: exposes retry-after`);
    t.equal(r.headers.get('access-control-allow-credentials'), null, 'no credentials: keys are headers, no cookies');
    if (status === 503) t.equal(r.headers.get('retry-after'), '1', '503: retry-after 1');
  }
  // the anonymous window (two a minute) is spent by the 401s above: the next is a 429
  const limited = await from(`${url}/api/v2/blocks`);
  t.equal(limited.status, 429);
  t.equal(limited.headers.get('access-control-allow-origin'), '*', '429: allow-origin');
  t.equal(limitHeaders(limited).remaining, 0);
  const retry = Number(limited.headers.get('retry-after'));
  t.ok(retry >= 1 && retry <= 60, `429: retry-after ${retry} s, the window's rest`);
  t.equal(retry, Math.ceil(limitHeaders(limited).reset / 1000), 'retry-after: x-ratelimit-reset in whole seconds');
  // the 429 of the JSON-RPC and Etherscan dialects too
  for (const [path, init] of [
    ['/api/eth-rpc', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}' }],
    ['/api?module=block&action=eth_block_number', {}],
  ] as const) {
    const r = await from(`${url}${path}`, init);
    t.same([r.status, r.headers.get('access-control-allow-origin'), r.headers.get('retry-after') !== null], [429, '*', true], `${path}: 429 with CORS and retry-after`);
  }
});

t.test('an origin list, and cors: false', async (t) => {
  const server = createServer({ chains: { '1': chain1 }, cors: { origins: parseCorsOrigins(`${APP}/, https://other.example`) }, log: false, metrics: false });
  const off = createServer({ chains: { '1': chain1 }, cors: false, log: false, metrics: false });
  const [{ url }, { url: offUrl }] = [await server.listen(0), await off.listen(0)];
  t.teardown(() => Promise.all([server.close(), off.close()]));

  const listed = await from(`${url}/api/v2/blocks`);
  t.equal(listed.headers.get('access-control-allow-origin'), APP, 'a listed origin is echoed');
  t.match(listed.headers.get('vary') ?? '', /origin/i, 'vary: origin');
  const other = await from(`${url}/api/v2/blocks`, {}, 'https://evil.example');
  t.same([other.status, other.headers.get('access-control-allow-origin')], [200, null], 'an unlisted origin: answered, without CORS headers (the browser refuses it)');
  const otherPreflight = await preflight(`${url}/api/v2/blocks`, 'GET', 'x-api-key', 'https://evil.example');
  t.same([otherPreflight.status, otherPreflight.headers.get('access-control-allow-origin')], [204, null], 'its preflight: 204 without CORS headers, never reaching the API');
  t.equal((await preflight(`${url}/api/v2/blocks`)).headers.get('access-control-allow-origin'), APP, 'a listed preflight');

  const none = await from(`${offUrl}/api/v2/blocks`);
  t.same([none.status, none.headers.get('access-control-allow-origin')], [200, null], 'cors: false: no CORS headers');
  t.equal((await preflight(`${offUrl}/api/v2/blocks`)).status, 405, 'cors: false: OPTIONS reaches the API as before');

  t.same(parseCorsOrigins('*'), '*');
  t.same(parseCorsOrigins('https://A.example:8443/,http://localhost:5173'), ['https://a.example:8443', 'http://localhost:5173']);
  t.throws(() => parseCorsOrigins('app.example'), /not an origin/);
  t.throws(() => parseCorsOrigins('https://app.example/path'), /not an origin/);
  t.throws(() => parseCorsOrigins(' , '), /--cors/);
  t.ok(CORS_ALLOW_HEADERS.includes('x-api-key'));
});

t.test('the middleware in another Koa app: CORS, the JSON 404 and servers only under its prefix', async (t) => {
  const explorer = createExplorer({ chains: { '1': chain1 } });
  const app = new Koa();
  app.use(explorerMiddleware(explorer, { prefix: '/explorer', publicUrl: 'https://gw.example/explorer/' }));
  app.use(async (ctx) => {
    if (ctx.path === '/explorer/theirs') ctx.body = 'theirs below the prefix';
    else if (ctx.path === '/hello') ctx.body = 'hello';
  });
  const plain = new Koa();
  plain.use(explorerMiddleware(explorer, { prefix: '/explorer' }));
  const [served, servedPlain] = [await listen(app), await listen(plain)];
  t.teardown(() => Promise.all([served.close(), servedPlain.close()]));
  const url = served.url;

  const ours = await from(`${url}/explorer/api/v2/blocks`);
  t.same([ours.status, ours.headers.get('access-control-allow-origin')], [200, '*'], 'ours: CORS');
  t.equal((await preflight(`${url}/explorer/api/eth-rpc`, 'POST')).status, 204, 'our preflight');
  const theirs = await from(`${url}/hello`);
  t.same([theirs.text, theirs.headers.get('access-control-allow-origin')], ['hello', null], 'their route: untouched');
  const theirOptions = await preflight(`${url}/hello`);
  t.same([theirOptions.status, theirOptions.headers.get('access-control-allow-origin')], [200, null], 'their preflight: theirs to answer');

  const unknown = await from(`${url}/explorer/api/v2/no-such-thing`);
  t.same([unknown.status, unknown.json, unknown.headers.get('content-type'), unknown.headers.get('access-control-allow-origin')], [404, { message: 'Page not found' }, 'application/json; charset=utf-8', '*'], 'an unknown path under the prefix: the JSON 404');
  t.same((await from(`${url}/explorer/whatever`)).json, { message: 'Page not found' }, 'any path under the prefix');
  t.equal((await from(`${url}/explorer/theirs`)).text, 'theirs below the prefix', 'what the app answers below the prefix stays theirs');
  t.equal((await preflight(`${url}/explorer/nothing`)).status, 204, 'a preflight under the prefix');
  const outside = await request(`${url}/elsewhere`);
  t.same([outside.status, outside.text], [404, 'Not Found'], "outside the prefix: Koa's own 404, as before");
  t.equal((await request(`${url}/explorerx/api/v2/blocks`)).text, 'Not Found', 'a longer first segment is not the prefix');

  const doc = (await request(`${url}/explorer/api/v2/openapi.json`)).json as { servers?: unknown; openapi: string; paths: object };
  t.same(doc.servers, [{ url: 'https://gw.example/explorer' }], 'servers: the public URL');
  t.same(Object.keys(doc).slice(0, 3), ['openapi', 'info', 'servers'], 'servers after info');
  const plainDoc = (await request(`${servedPlain.url}/explorer/api/v2/openapi.json`)).json as { servers?: unknown };
  t.same(plainDoc.servers, [{ url: '/explorer' }], 'servers: the prefix, relative to the document');
  const root = createServer({ chains: { '1': chain1 }, log: false, metrics: false });
  const { url: rootUrl } = await root.listen(0);
  t.teardown(() => root.close());
  t.equal(((await request(`${rootUrl}/api/v2/openapi.json`)).json as { servers?: unknown }).servers, undefined, 'at the root: no servers (the document as lib builds it)');
});
