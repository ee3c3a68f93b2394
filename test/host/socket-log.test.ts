/**
 * The request log has a line for every way in, upgrades and socket joins too (host/socket.ts,
 * through the server's one request log, host/pipeline/log.ts): an upgrade answered 101, or its
 * refusal's status — by the steps (no key on the multichain form, an unknown chain), before them
 * (a vsn Phoenix does not speak, a path that is not the socket's) or by ws's handshake — and each
 * join the steps judged, as a GET of `{socket path}/{topic}`: 200, or the refusal's status. Each
 * line has the fields of any request's, in their order, the chain and the key's name as the steps
 * learned them, the client's address by X-Forwarded-For behind a trusted proxy.
 */
import { connect } from 'node:net';
import t from 'tap';
import WebSocket from 'ws';
import { createServer } from '../../host/index.ts';
import type { RequestLogLine } from '../../host/index.ts';
import { createMemoryStore } from '../../adapters/memory/index.ts';

const KEY = 'socket-log-key';
const PLAN = { name: 'big', requestsPerSecond: 1_000_000, credits: 100_000_000, creditPeriod: 'month' } as const;
const IP = '10.1.2.3';
const RESTRICTED = `0x${'ab'.repeat(20)}`;

const until = async (ok: () => boolean, ms = 10_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** an upgrade: the open socket, or the refusal's status */
function open(url: string): Promise<WebSocket | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers: { 'x-forwarded-for': IP } });
    ws.on('error', () => undefined);
    ws.on('unexpected-response', (_req, res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    ws.on('open', () => resolve(ws));
  });
}

t.test('upgrades and joins: one request log line each', async (t) => {
  const store = createMemoryStore();
  const logs: RequestLogLine[] = [];
  const server = createServer({
    chains: { '1': { store, feed: store.feed } },
    docs: false,
    metrics: false,
    proxy: true,
    keys: [{ key: KEY, name: 'loggy', plan: PLAN }],
    restrictedAddresses: [RESTRICTED],
    log: (line) => logs.push(line),
  });
  const { port } = await server.listen(0);
  t.teardown(() => server.close());
  const ws = `ws://127.0.0.1:${port}`;
  const lineOf = async (path: string, count = 1): Promise<RequestLogLine[]> => {
    await until(() => logs.filter((l) => l.path === path).length >= count);
    return logs.filter((l) => l.path === path);
  };

  const socket = await open(`${ws}/1/socket/v2/websocket?vsn=2.0.0&apikey=${KEY}`);
  if (typeof socket === 'number') throw new Error(`refused: ${socket}`);
  t.teardown(() => socket.close());
  const [upgraded] = await lineOf('/1/socket/v2/websocket');
  t.match(upgraded, { method: 'GET', path: '/1/socket/v2/websocket', status: 101, chain: '1', key: 'loggy', ip: IP }, 'an upgrade: 101, its chain, its key by name');
  t.same(Object.keys(upgraded ?? {}), ['time', 'method', 'path', 'status', 'ms', 'chain', 'key', 'ip'], "a request line's fields, in their order");
  t.type(upgraded?.ms, 'number');

  // joins, judged by the steps
  const replies = new Map<string, unknown>();
  socket.on('message', (data) => {
    const frame = JSON.parse(String(data)) as unknown[];
    replies.set(String(frame[1]), frame[4]);
  });
  socket.send(JSON.stringify(['1', '1', 'blocks:new_block', 'phx_join', {}]));
  socket.send(JSON.stringify(['2', '2', `addresses:${RESTRICTED}`, 'phx_join', {}]));
  await until(() => replies.has('1') && replies.has('2'));
  const [joined] = await lineOf('/1/socket/v2/websocket/blocks:new_block');
  t.match(joined, { method: 'GET', status: 200, chain: '1', key: 'loggy', ip: IP }, 'a join: 200');
  const [restricted] = await lineOf(`/1/socket/v2/websocket/addresses:${RESTRICTED}`);
  t.match(restricted, { method: 'GET', status: 403, chain: '1', ip: IP }, 'a join refused (a restricted address): 403');

  // refusals by the steps: their status, and the chain they addressed
  t.equal(await open(`${ws}/1/socket/v2/websocket?vsn=2.0.0&apikey=wrong`), 401);
  t.match((await lineOf('/1/socket/v2/websocket', 2))[1], { status: 401, chain: '1', ip: IP, key: undefined }, 'a wrong key: 401, no key named');
  t.equal(await open(`${ws}/9/socket/v2/websocket?vsn=2.0.0&apikey=${KEY}`), 404);
  t.match((await lineOf('/9/socket/v2/websocket'))[0], { status: 404, chain: '9', ip: IP }, 'an unknown chain: 404');
  // before the steps
  t.equal(await open(`${ws}/socket/v2/websocket?vsn=3.0.0`), 422);
  t.match((await lineOf('/socket/v2/websocket'))[0], { method: 'GET', status: 422, ip: IP, chain: undefined }, 'a vsn Phoenix does not speak: 422');
  t.equal(await open(`${ws}/socket/v3/websocket`), 404);
  t.match((await lineOf('/socket/v3/websocket'))[0], { status: 404, ip: IP }, 'a path that is not the socket: 404');

  // ws's own refusal of a malformed handshake (no Sec-WebSocket-Key)
  const raw = connect(port, '127.0.0.1');
  let answer = '';
  raw.on('data', (d: Buffer) => (answer += d.toString()));
  raw.write(`GET /socket/v2/websocket?x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nX-Forwarded-For: ${IP}\r\n\r\n`);
  await new Promise((resolve) => raw.on('close', resolve));
  t.match(answer, /^HTTP\/1\.1 400 /, 'ws refuses it: 400');
  t.match((await lineOf('/socket/v2/websocket', 2))[1], { status: 400, chain: '1', ip: IP }, 'its line: 400');
  t.notOk(logs.some((l) => l.path.includes('?')), 'no query string in any line');
});
