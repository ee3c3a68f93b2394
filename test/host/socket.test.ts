/**
 * Blockscout's socket (/socket/v2/websocket, Phoenix channels over ws):
 * - the official `phoenix` client, over `ws`, joins blocks:new_block,
 *   transactions:new_transaction and addresses:{hash} while blocks are written to a memory and a
 *   SQLite store: each event arrives once, in order, its payloads equal to the API's answers;
 * - Phoenix's frames as Phoenix answers them (V2 arrays, V1 objects without vsn): heartbeat,
 *   join errors with Blockscout's reasons, the lowercase-topic rule, leave, a duplicate join, an
 *   event the channel does not handle;
 * - bad input and bounds: junk, binary and oversized frames, joins beyond the caps, a restricted
 *   address, upgrades without a key on the multichain form, an unknown chain, a bad vsn, too many
 *   connections, the heartbeat timeout, a slow consumer dropped while another keeps up — the
 *   server serving on; /metrics counts connections, joins, messages and drops.
 */
import { Socket } from 'phoenix';
import type { Channel } from 'phoenix';
import t from 'tap';
import WebSocket from 'ws';
import { buildFixtureChain } from '../../fixture/index.ts';
import { createServer } from '../../host/index.ts';
import type { ScoutkitServer, ServerOptions } from '../../host/index.ts';
import type { ChangeFeed } from '../../lib/feed/change.ts';
import type { JsonObject } from '../../lib/index.ts';
import { createMemoryStore } from '../../adapters/memory/index.ts';
import { storeFactories } from '../support/stores.ts';

const chain = buildFixtureChain();
const PLAN = { name: 'big', requestsPerSecond: 1_000_000, credits: 100_000_000, creditPeriod: 'month' } as const;
const KEY = 'socket-key';

const until = async (ok: () => boolean, ms = 60_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};

async function serve(store: ServerOptions['chains'][string], options: Partial<ServerOptions> = {}): Promise<{ server: ScoutkitServer; http: string; ws: string }> {
  const server = createServer({
    chains: { '1': store },
    log: false,
    docs: false,
    keys: [{ key: KEY, plan: PLAN }],
    anonymousPlan: { ...PLAN, name: 'anon' },
    ...options,
  });
  const { port } = await server.listen(0);
  return { server, http: `http://127.0.0.1:${port}`, ws: `ws://127.0.0.1:${port}` };
}

/** join a channel; resolves with the reply's status and response */
const join = (channel: Channel): Promise<{ status: string; response: unknown }> =>
  new Promise((resolve) => {
    channel
      .join()
      .receive('ok', (response: unknown) => resolve({ status: 'ok', response }))
      .receive('error', (response: unknown) => resolve({ status: 'error', response }));
  });

const getJson = async (url: string): Promise<{ items: JsonObject[] }> => (await (await fetch(url)).json()) as { items: JsonObject[] };

t.test('the phoenix client: each event once, in order, equal to the API', async (t) => {
  for (const factory of await storeFactories()) {
    if (factory.name === 'postgres') continue;
    await t.test(factory.name, async (t) => {
      const store = await factory.open();
      const feed = (store as unknown as { feed: ChangeFeed }).feed;
      await store.writeBlocks(chain.bundles.slice(0, 5));
      const { server, http, ws } = await serve({ store, feed });
      const socket = new Socket(`${ws}/socket/v2`, { transport: WebSocket, params: {} });
      socket.connect();
      t.teardown(async () => {
        socket.disconnect();
        await server.close();
        await store.close();
      });
      const written = chain.bundles.slice(5, 25);
      const sender = written.flatMap((b) => b.transactions)[0]?.from.toLowerCase() as string;

      const blocks: JsonObject[] = [];
      const counts: number[] = [];
      const addressTxs: JsonObject[] = [];
      const addressTransfers: JsonObject[] = [];
      const blockChannel = socket.channel('blocks:new_block', {});
      blockChannel.on('new_block', (p: JsonObject) => void blocks.push(p));
      const txChannel = socket.channel('transactions:new_transaction', {});
      txChannel.on('transaction', (p: { transaction: number }) => void counts.push(p.transaction));
      const addressChannel = socket.channel(`addresses:${sender}`, {});
      addressChannel.on('transaction', (p: { transactions: JsonObject[] }) => void addressTxs.push(...p.transactions));
      addressChannel.on('token_transfer', (p: { token_transfers: JsonObject[] }) => void addressTransfers.push(...p.token_transfers));
      t.same(await join(blockChannel), { status: 'ok', response: {} }, 'blocks:new_block joined');
      t.same(await join(txChannel), { status: 'ok', response: {} }, 'transactions:new_transaction joined');
      t.same(await join(addressChannel), { status: 'ok', response: {} }, 'addresses:{hash} joined');

      // an unknown topic: the client hears Blockscout's reason
      const unknown = socket.channel('zkevm_batches:new_zkevm_confirmed_batch', {});
      t.same(await join(unknown), { status: 'error', response: { reason: 'unmatched topic' } }, 'an unknown topic is refused');
      unknown.leave();

      // blocks written while subscribed: one at a time, then five in one write; after each write,
      // its events are compared with the API's answers at that moment
      const steps = [...written.slice(0, 15).map((b) => [b]), written.slice(15)];
      const mine = (bundles: typeof written) => bundles.flatMap((b) => b.transactions).filter((tx) => tx.from.toLowerCase() === sender || tx.to?.toLowerCase() === sender);
      let compared = 0;
      for (const step of steps) {
        const [b0, t0, tt0] = [blocks.length, addressTxs.length, addressTransfers.length];
        await store.writeBlocks(step);
        await until(() => blocks.length >= b0 + step.length && addressTxs.length >= t0 + mine(step).length);
        const range = step.map((b) => b.block.number);
        const apiTransfers = await getJson(`${http}/api/v2/addresses/${sender}/token-transfers`);
        const expectedTransfers = apiTransfers.items.filter((i) => range.includes(Number(i['block_number'])));
        await until(() => addressTransfers.length >= tt0 + expectedTransfers.length);
        for (const p of blocks.slice(b0)) {
          const block = p['block'] as JsonObject;
          const api = await getJson(`${http}/api/v2/blocks?block_number=${Number(block['height']) + 1}&items_count=1`);
          t.same(block, api.items[0], `block ${String(block['height'])} equals its /api/v2/blocks item`);
          compared++;
        }
        const apiTxs = await getJson(`${http}/api/v2/addresses/${sender}/transactions`);
        for (const tx of addressTxs.slice(t0)) {
          t.same(tx, apiTxs.items.find((i) => i['hash'] === tx['hash']), `transaction ${String(tx['hash']).slice(0, 10)} equals its /addresses/{h}/transactions item`);
          compared++;
        }
        for (const tt of addressTransfers.slice(tt0)) {
          const same = apiTransfers.items.find((i) => i['transaction_hash'] === tt['transaction_hash'] && i['log_index'] === tt['log_index']);
          t.same(tt, same, `token transfer ${String(tt['transaction_hash']).slice(0, 10)}/${String(tt['log_index'])} equals its /addresses/{h}/token-transfers item`);
          compared++;
        }
      }
      await new Promise((r) => setTimeout(r, 300));
      t.ok(compared > written.length, `${compared} payloads compared with the API`);

      t.same(
        blocks.map((p) => (p['block'] as JsonObject)['height']),
        written.map((b) => b.block.number),
        'new_block: each block once, in order',
      );
      t.ok(blocks.every((p) => typeof p['average_block_time'] === 'string'), 'average_block_time is a string');
      const perWrite = steps.map((step) => step.reduce((n, b) => n + b.transactions.length, 0)).filter((n) => n > 0);
      t.same(counts, perWrite, 'transactions:new_transaction: the count of each write, once');
      t.same(
        addressTxs.map((tx) => tx['hash']),
        mine(written).map((tx) => tx.hash),
        'addresses:{hash} transaction: its transactions once, in block order',
      );
      t.ok(addressTransfers.length > 0, 'addresses:{hash} token_transfer events came');
    });
  }
});

/** A raw ws client: the frames it got, and how it closed. */
interface Raw {
  readonly ws: WebSocket;
  readonly frames: unknown[];
  readonly closed: Promise<{ code: number; reason: string }>;
  send(frame: unknown): void;
  /** the first frame (from `from` on) that `match` accepts */
  next(match: (frame: unknown) => boolean, from?: number): Promise<unknown>;
}

function raw(url: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    const frames: unknown[] = [];
    const closed = new Promise<{ code: number; reason: string }>((r) => ws.on('close', (code, reason) => r({ code, reason: reason.toString() })));
    ws.on('message', (data) => frames.push(JSON.parse(String(data))));
    ws.on('error', () => undefined);
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += String(c)));
      res.on('end', () => reject(Object.assign(new Error(`refused ${res.statusCode}`), { status: res.statusCode, body: JSON.parse(body) as unknown, headers: res.headers })));
    });
    ws.on('open', () =>
      resolve({
        ws,
        frames,
        closed,
        send: (frame) => ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame)),
        async next(match, from = 0) {
          let found: unknown;
          await until(() => (found = frames.slice(from).find(match)) !== undefined);
          return found;
        },
      }),
    );
  });
}

const refused = async (url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown }> => {
  try {
    const r = await raw(url, headers);
    r.ws.close();
    return { status: 101, body: null };
  } catch (e) {
    return e as { status: number; body: unknown };
  }
};

const replyTo = (ref: string) => (f: unknown) => Array.isArray(f) && f[1] === ref;

t.test('frames as Phoenix answers them, bad input, caps', async (t) => {
  const store = createMemoryStore();
  await store.writeBlocks(chain.bundles.slice(0, 30));
  const restricted = `0x${'ab'.repeat(20)}`;
  const { server, http, ws } = await serve(
    { store, feed: store.feed },
    { restrictedAddresses: [restricted], socket: { maxFrameBytes: 4096, maxTopicsPerConnection: 20, maxConnectionsPerCaller: 8 } },
  );
  t.teardown(() => server.close());
  const url = `${ws}/socket/v2/websocket?vsn=2.0.0`;

  const c = await raw(url);
  c.send([null, '1', 'phoenix', 'heartbeat', {}]);
  t.same(await c.next(replyTo('1')), [null, '1', 'phoenix', 'phx_reply', { status: 'ok', response: {} }], 'heartbeat');
  c.send(['2', '2', 'zkevm_batches:new_zkevm_confirmed_batch', 'phx_join', {}]);
  t.same(await c.next(replyTo('2')), [null, '2', 'zkevm_batches:new_zkevm_confirmed_batch', 'phx_reply', { status: 'error', response: { reason: 'unmatched topic' } }], 'unmatched topic: join_ref null');
  c.send(['3', '3', 'addresses:0xzz', 'phx_join', {}]);
  t.same(await c.next(replyTo('3')), ['3', '3', 'addresses:0xzz', 'phx_reply', { status: 'error', response: { reason: 'Invalid address hash' } }], 'an invalid hash');
  c.send(['4', '4', `addresses:${restricted}`, 'phx_join', {}]);
  t.same(await c.next(replyTo('4')), ['4', '4', `addresses:${restricted}`, 'phx_reply', { status: 'error', response: { reason: 'Restricted access' } }], 'a restricted address');

  // the lowercase rule: a mixed-case topic joins but hears nothing; its lowercase twin hears the block's miner
  const miner = chain.bundles[30]?.block.miner as string;
  const lower = `blocks:${miner.toLowerCase()}`;
  const mixed = `blocks:0x${miner.slice(2).toUpperCase()}`;
  c.send(['5', '5', lower, 'phx_join', {}]);
  c.send(['6', '6', mixed, 'phx_join', {}]);
  c.send(['7', '7', 'blocks:new_block', 'phx_join', {}]);
  t.same(await c.next(replyTo('6')), ['6', '6', mixed, 'phx_reply', { status: 'ok', response: {} }], 'a mixed-case topic joins');
  await c.next(replyTo('7'));
  await store.writeBlocks(chain.bundles.slice(30, 31));
  const minerEvent = (await c.next((f) => Array.isArray(f) && f[2] === lower && f[3] === 'new_block')) as unknown[];
  t.same(minerEvent.slice(0, 4), [null, null, lower, 'new_block'], 'a broadcast: no refs');
  t.equal(((minerEvent[4] as JsonObject)['block'] as JsonObject)['height'], 30, "blocks:{miner} hears its miner's block");
  await c.next((f) => Array.isArray(f) && f[2] === 'blocks:new_block' && f[3] === 'new_block');
  t.notOk(c.frames.some((f) => Array.isArray(f) && f[2] === mixed && f[3] === 'new_block'), 'the mixed-case topic hears nothing');

  // a duplicate join closes the old channel first; leave answers and closes; an unhandled event fails the channel
  c.send(['8', '8', 'blocks:new_block', 'phx_join', {}]);
  const afterDup = c.frames.length;
  t.same(await c.next(replyTo('8')), ['8', '8', 'blocks:new_block', 'phx_reply', { status: 'ok', response: {} }], 'joined again');
  t.ok(c.frames.some((f) => JSON.stringify(f) === JSON.stringify(['7', '7', 'blocks:new_block', 'phx_close', {}])), 'the old join closed (phx_close, its join_ref)');
  c.send(['8', '9', 'blocks:new_block', 'phx_leave', {}]);
  t.same(await c.next(replyTo('9'), afterDup), ['8', '9', 'blocks:new_block', 'phx_reply', { status: 'ok', response: {} }], 'leave: ok');
  t.same(await c.next((f) => Array.isArray(f) && f[3] === 'phx_close' && f[0] === '8'), ['8', '8', 'blocks:new_block', 'phx_close', {}], 'then phx_close');
  c.send(['5', '10', lower, 'custom_event', {}]);
  t.same(await c.next((f) => Array.isArray(f) && f[3] === 'phx_error'), ['5', '5', lower, 'phx_error', {}], 'an event no channel handles fails the channel');
  c.send([null, '11', 'blocks:new_block', 'custom_event', {}]);
  t.same(await c.next(replyTo('11')), [null, '11', 'blocks:new_block', 'phx_reply', { status: 'error', response: { reason: 'unmatched topic' } }], 'an event on a topic not joined');

  // joins beyond the cap of the connection
  const before = c.frames.length;
  const topics = Array.from({ length: 30 }, (_, i) => `addresses:0x${(i + 1).toString(16).padStart(40, '0')}`);
  for (const [i, topic] of topics.entries()) c.send([`j${i}`, `j${i}`, topic, 'phx_join', {}]);
  await c.next(replyTo('j29'), before);
  const joinReplies = c.frames.slice(before).filter((f) => Array.isArray(f) && String(f[1]).startsWith('j')) as unknown[][];
  const okJoins = joinReplies.filter((f) => (f[4] as { status: string }).status === 'ok').length;
  t.equal(okJoins, 20 - 1, 'joins up to the cap (20, one topic already joined)');
  t.match(joinReplies.at(-1), ['j29', 'j29', topics[29], 'phx_reply', { status: 'error', response: { reason: /too many topics/ } }], 'beyond: refused with a reason');

  // 10,000 joins at once on a second socket: every one answered, the connection alive
  const flood = await raw(url);
  const burst = Array.from({ length: 10_000 }, (_, i) => JSON.stringify([`f${i}`, `f${i}`, `addresses:0x${(i % 50).toString(16).padStart(40, '0')}`, 'phx_join', {}])).join('\n');
  for (const frame of burst.split('\n')) flood.ws.send(frame);
  await flood.next(replyTo('f9999'));
  t.equal(flood.frames.filter((f) => Array.isArray(f) && String(f[1]).startsWith('f') && f[3] === 'phx_reply').length, 10_000, '10,000 joins: 10,000 replies');
  flood.send([null, 'hb', 'phoenix', 'heartbeat', {}]);
  await flood.next(replyTo('hb'));
  flood.ws.close();

  // V1 (no vsn): objects, no join_ref
  const v1 = await raw(`${ws}/socket/v2/websocket`);
  v1.send({ topic: 'phoenix', event: 'heartbeat', payload: {}, ref: '1' });
  t.same(await v1.next((f) => (f as { ref?: unknown }).ref === '1'), { topic: 'phoenix', event: 'phx_reply', payload: { status: 'ok', response: {} }, ref: '1' }, 'V1 heartbeat');
  v1.send({ topic: 'addresses:0x12', event: 'phx_join', payload: {}, ref: '2' });
  t.same(await v1.next((f) => (f as { ref?: unknown }).ref === '2'), { topic: 'addresses:0x12', event: 'phx_reply', payload: { status: 'error', response: { reason: 'Invalid address hash' } }, ref: '2' }, 'V1 join refused');
  v1.send(['a', 'v2', 'frame', 'in', 'v1']);
  t.match(await v1.closed, { code: 1007, reason: /invalid frame/ }, 'a V2 frame on V1: closed 1007');

  // junk, binary and oversized frames: closed with a code, the server serving on
  const junk = await raw(url);
  junk.send('this is not json');
  t.match(await junk.closed, { code: 1007, reason: /invalid frame: not JSON/ }, 'junk: 1007');
  const short = await raw(url);
  short.send([null, '1', 'phoenix']);
  t.match(await short.closed, { code: 1007 }, 'a short array: 1007');
  const binary = await raw(url);
  binary.ws.send(Buffer.from([1, 2, 3]));
  t.match(await binary.closed, { code: 1003 }, 'a binary frame: 1003');
  const big = await raw(url);
  big.send([null, '1', 'phoenix', 'heartbeat', { pad: 'x'.repeat(10_000) }]);
  t.match(await big.closed, { code: 1009 }, 'a frame over maxFrameBytes: 1009');
  c.send([null, '12', 'phoenix', 'heartbeat', {}]);
  await c.next(replyTo('12'));
  t.pass('the first connection is still served');

  // upgrades: keys on the multichain form, unknown chain, bad vsn, too many connections
  t.match(await refused(`${ws}/1/socket/v2/websocket?vsn=2.0.0`), { status: 401, body: { message: /API key required/ } }, 'multichain without a key: 401');
  t.match(await refused(`${ws}/1/socket/v2/websocket?vsn=2.0.0&apikey=wrong`), { status: 401 }, 'a wrong key: 401');
  t.match(await refused(`${ws}/1/socket/v2/websocket?vsn=2.0.0&apikey=${KEY}`), { status: 101 }, 'with the key: upgraded');
  t.match(await refused(`${ws}/1/socket/v2/websocket?vsn=2.0.0`, { 'x-api-key': KEY }), { status: 101 }, 'a key in a header');
  t.match(await refused(`${ws}/9/socket/v2/websocket?vsn=2.0.0&apikey=${KEY}`), { status: 404 }, 'an unknown chain: 404');
  t.match(await refused(`${ws}/socket/v2/websocket?vsn=3.0.0`), { status: 422, body: { errors: [{ source: { pointer: '/vsn' } }] } }, 'a vsn Phoenix does not speak: 422');
  t.match(await refused(`${ws}/socket/v3/websocket`), { status: 404 }, 'another path: 404');
  await until(() => server.socket?.connections === 1);
  const held = [c];
  for (let i = held.length; i < 8; i++) held.push(await raw(url));
  t.match(await refused(url), { status: 429, body: { message: /at most 8 per caller/ } }, 'a ninth connection of the caller: 429');
  t.match(await refused(`${url}&apikey=${KEY}`), { status: 101 }, 'another caller (a key) is not counted with the IP');
  for (const h of held.slice(1)) h.ws.close();

  const text = await (await fetch(`${http}/metrics`)).text();
  t.match(text, /scoutkit_socket_connections \d+/, 'metrics: connections');
  t.match(text, /scoutkit_socket_joins_total\{result="ok"\} [1-9]/, 'metrics: joins ok');
  t.match(text, /scoutkit_socket_joins_total\{result="error"\} [1-9]/, 'metrics: joins refused');
  t.match(text, /scoutkit_socket_messages_total\{direction="in"\} [1-9]/, 'metrics: messages in');
  t.match(text, /scoutkit_socket_messages_total\{direction="out"\} [1-9]/, 'metrics: messages out');
  t.match(text, /scoutkit_socket_drops_total\{reason="invalid_frame"\} 3/, 'metrics: drops by reason');
  t.match(text, /scoutkit_socket_drops_total\{reason="frame_too_large"\} 1/);
  t.match(text, /scoutkit_socket_drops_total\{reason="binary_frame"\} 1/);
  c.ws.close();
});

t.test('the heartbeat timeout (a server below a prefix)', async (t) => {
  const store = createMemoryStore();
  const { server, ws } = await serve({ store, feed: store.feed }, { prefix: '/explorer', socket: { heartbeatTimeoutMs: 400 } });
  t.teardown(() => server.close());
  t.match(await refused(`${ws}/socket/v2/websocket?vsn=2.0.0`), { status: 404 }, 'below a prefix: not at the root');
  // taken before the connection exists, so the server's 400 ms cannot have started earlier (a bound that load cannot break)
  const started = Date.now();
  const quiet = await raw(`${ws}/explorer/socket/v2/websocket?vsn=2.0.0`);
  t.match(await quiet.closed, { code: 1000, reason: /heartbeat timeout/ }, 'silent past the timeout: closed');
  t.ok(Date.now() - started >= 350, 'not before the timeout');
});

t.test('a slow consumer is dropped, the others keep up', async (t) => {
  const store = createMemoryStore();
  await store.writeBlocks(chain.bundles.slice(0, 2));
  const { server, http, ws } = await serve({ store, feed: store.feed }, { socket: { maxBufferedBytes: 256 * 1024 } });
  const socket = new Socket(`${ws}/socket/v2`, { transport: WebSocket });
  socket.connect();
  t.teardown(async () => {
    socket.disconnect();
    await server.close();
  });
  const heights: number[] = [];
  const channel = socket.channel('blocks:new_block', {});
  channel.on('new_block', (p: { block: { height: number } }) => void heights.push(p.block.height));
  t.equal((await join(channel)).status, 'ok');

  const slow = await raw(`${ws}/socket/v2/websocket?vsn=2.0.0`);
  slow.send(['1', '1', 'blocks:new_block', 'phx_join', {}]);
  await slow.next(replyTo('1'));
  // it stops reading: its frames pile up in the server's send queue
  (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();

  const expected: number[] = [];
  const dropped = async (): Promise<boolean> => /scoutkit_socket_drops_total\{reason="slow"\} 1/.test(await (await fetch(`${http}/metrics`)).text());
  for (let round = 0; round < 40 && !(await dropped()); round++) {
    await store.rollbackAbove(1);
    for (let from = 2; from < chain.bundles.length; from += 10) {
      const batch = chain.bundles.slice(from, from + 10);
      await store.writeBlocks(batch);
      expected.push(...batch.map((b) => b.block.number));
    }
    await until(() => heights.length >= expected.length);
  }
  t.ok(await dropped(), `the slow consumer was dropped (after ${expected.length} blocks)`);
  t.same(heights, expected, 'the client that reads got every block, once, in order');
  (slow.ws as unknown as { _socket: { resume(): void } })._socket.resume();
  t.match(await slow.closed, { code: 1013, reason: /too slow/ }, 'the slow consumer: closed 1013');
  await until(() => server.socket?.connections === 1);
  t.pass('the reading client is still connected');
});
