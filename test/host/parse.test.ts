/**
 * One query parser and one client-IP reader (host/pipeline/parse.ts) on every way in: the
 * parser gives Koa 3's `ctx.query` and the reader Koa's `ctx.ip` (which the Koa middleware's
 * steps read, its context being the request value), and the same query and IP reach the answer
 * through the Koa chain, the fast path, an upgrade (and the socket joins judged on its request
 * value), as the endpoint request, the log line and the verdict show.
 */
import http from 'node:http';
import { Socket } from 'node:net';
import Koa from 'koa';
import t from 'tap';
import { createServer } from '../../host/index.ts';
import type { RequestLogLine } from '../../host/index.ts';
import { clientIp, contextIp, contextRequest, parseQuery, parseRequest } from '../../host/pipeline/parse.ts';
import { createMemoryStore } from '../../adapters/memory/index.ts';
import { echoExplorer } from './helpers.ts';

const QUERIES = [
  '',
  'a=1&a=2&b=%ZZ&c',
  'a=1&a=2&a=3',
  '%FF=%E0%A4%A',
  'x=a+b&y=%2B&z=%20',
  '__proto__=1&constructor=2&toString=3',
  '=v&&k=&=w',
  'a[]=1&a[]=2&b[c]=d',
  'q=%u0041&r=%',
  'a=1;b=2',
  'apikey=k1&apiKey=k2&key=s',
  'a==b&c=d=e',
  Array.from({ length: 1001 }, (_, i) => `k${i}=${i}`).join('&'),
];

/** Koa's own reading of a request (its context over a request that is never answered). */
function koaReading(url: string, headers: Record<string, string>, proxy: boolean): { query: unknown; ip: string } {
  const app = new Koa({ proxy });
  const req = Object.assign(new http.IncomingMessage(new Socket()), { url, method: 'GET', headers });
  Object.defineProperty(req.socket, 'remoteAddress', { value: '192.0.2.7' });
  const ctx = app.createContext(req, new http.ServerResponse(req));
  return { query: { ...ctx.query }, ip: ctx.ip };
}

t.test("parseQuery is Koa 3's ctx.query, name for name and value for value", async (t) => {
  for (const text of QUERIES) {
    const koa = koaReading(`/api/v2/blocks${text === '' ? '' : `?${text}`}`, {}, false).query;
    t.same({ ...parseQuery(text) }, koa, text.slice(0, 40));
    t.same(Object.keys(parseQuery(text)), Object.keys(koa as object), `order: ${text.slice(0, 40)}`);
  }
  t.same({ ...parseQuery('a=1&a=2&b=%ZZ&c') }, { a: ['1', '2'], b: '%ZZ', c: '' });
});

t.test("clientIp is Koa's ctx.ip, behind a trusted proxy and not", async (t) => {
  const cases: Record<string, string>[] = [{}, { 'x-forwarded-for': '10.0.0.1' }, { 'x-forwarded-for': ' 10.0.0.1 , 10.0.0.2' }, { 'x-forwarded-for': ' , 10.0.0.2' }, { 'x-forwarded-for': '' }];
  for (const proxy of [false, true]) {
    for (const headers of cases) {
      const koa = koaReading('/', headers, proxy).ip;
      t.equal(clientIp(headers, '192.0.2.7', proxy), koa, `${proxy} ${JSON.stringify(headers)}`);
    }
  }
});

t.test("contextRequest reads a Koa context as Koa does: its query, and its IP by the app's proxy, proxyIpHeader and maxIpsCount", async (t) => {
  const apps: { proxy: boolean; proxyIpHeader?: string; maxIpsCount?: number }[] = [
    { proxy: false },
    { proxy: true },
    { proxy: true, maxIpsCount: 1 },
    { proxy: true, maxIpsCount: 2 },
    { proxy: true, maxIpsCount: 5 },
    { proxy: true, proxyIpHeader: 'X-Real-Client' },
    { proxy: true, proxyIpHeader: 'X-Real-Client', maxIpsCount: 1 },
  ];
  const headerSets: Record<string, string>[] = [
    {},
    { 'x-forwarded-for': ' 10.0.0.1 , 10.0.0.2, 10.0.0.3 ' },
    { 'x-forwarded-for': '10.0.0.1, ' },
    { 'x-real-client': '10.9.9.9, 10.9.9.8', 'x-forwarded-for': '10.0.0.1' },
  ];
  for (const options of apps) {
    for (const headers of headerSets) {
      const app = new Koa(options);
      const req = Object.assign(new http.IncomingMessage(new Socket()), { url: '/api/v2/blocks?a=1&a=2&b=%ZZ', method: 'GET', headers });
      Object.defineProperty(req.socket, 'remoteAddress', { value: '192.0.2.7' });
      const ctx = app.createContext(req, new http.ServerResponse(req));
      const label = `${JSON.stringify(options)} ${JSON.stringify(headers)}`;
      t.equal(contextIp(ctx), ctx.ip, label);
      const request = contextRequest(ctx);
      t.equal(request.ip, ctx.ip, label);
      t.same({ ...request.query }, { ...ctx.query }, label);
      t.equal(request.path, '/api/v2/blocks');
      t.equal(contextRequest(ctx), request, 'read once, kept on the context');
    }
  }
});

t.test('the same query and client IP on the Koa chain, the fast path and an upgrade', async (t) => {
  const path = '/api/v2/blocks';
  const query = 'a=1&a=2&b=%ZZ&c';
  const forwarded = ' 10.0.0.1 , 10.0.0.2';
  const seen: { query: unknown; ip: string }[] = [];
  for (const fastPath of [false, true]) {
    const explorer = echoExplorer();
    const logs: RequestLogLine[] = [];
    const server = createServer({ chains: { '1': createMemoryStore() }, explorer, proxy: true, socket: false, metrics: false, fastPath, log: (line) => logs.push(line) });
    let koa = 0;
    const made = server.app.createContext.bind(server.app);
    server.app.createContext = (req, res) => {
      koa++;
      return made(req, res);
    };
    const { url } = await server.listen(0, '127.0.0.1');
    const reply = await fetch(`${url}${path}?${query}`, { headers: { 'x-forwarded-for': forwarded } });
    t.equal(reply.status, 200);
    await reply.arrayBuffer();
    t.equal(koa, fastPath ? 0 : 1, fastPath ? 'the fast path answered' : 'the Koa chain answered');
    seen.push({ query: { ...explorer.seen[0]?.query }, ip: logs[0]?.ip ?? '' });

    // an upgrade (and every join on its socket, judged on this request value)
    const req = Object.assign(new http.IncomingMessage(new Socket()), { url: `/socket/v2/websocket?${query}`, method: 'GET', headers: { 'x-forwarded-for': forwarded } });
    const verdict = await server.judgeUpgrade(req);
    t.ok(verdict.allow);
    if (verdict.allow) seen.push({ query: { ...verdict.request.query }, ip: verdict.request.ip });
    await server.close();
  }
  const expected = { query: { a: ['1', '2'], b: '%ZZ', c: '' }, ip: '10.0.0.1' };
  for (const one of seen) t.same(one, expected);
  t.equal(seen.length, 4);
});

t.test('parseRequest splits the raw path from the query', async (t) => {
  const req = Object.assign(new http.IncomingMessage(new Socket()), { url: '/x/%41?b=1&b=2', method: 'HEAD', headers: {} });
  const request = parseRequest(req, false);
  t.equal(request.method, 'HEAD');
  t.equal(request.path, '/x/%41');
  t.same({ ...request.query }, { b: ['1', '2'] });
});
