/**
 * Live topics: explorer.subscribe gets Blockscout's payloads equal to the API's answers, in
 * block order, each once; GET /api/v2/events streams them over plain HTTP (a new_block arrives
 * after a write; Last-Event-ID resumes from a data version; a bad topic is 422; an unknown
 * chain 404). The hub's publish (events no write carries): to that topic's subscribers only,
 * after the changes already queued, not replayed.
 */
import http from 'node:http';
import Koa from 'koa';
import t from 'tap';
import { createMemoryStore } from '../../../adapters/memory/index.ts';
import { buildFixtureChain } from '../../../fixture/index.ts';
import { explorerMiddleware } from '../../../host/index.ts';
import type { JsonObject, LiveEvent } from '../../../lib/index.ts';
import { call, createExplorer, createLiveHub } from '../../../lib/index.ts';
import { listen } from '../../host/helpers.ts';

const chain = buildFixtureChain();

const settle = async (ok: () => boolean): Promise<void> => {
  for (let i = 0; i < 500 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
};

t.test('subscribe: payloads equal the API answers, in block order, each once', async (t) => {
  const store = createMemoryStore();
  await store.writeBlocks(chain.bundles.slice(0, 5));
  const explorer = createExplorer({ chains: { '1': { store, feed: store.feed } } });
  t.throws(() => explorer.subscribe('zkevm_batches:new', () => undefined), /unmatched topic/);
  t.throws(() => explorer.subscribe('addresses:0xzz', () => undefined), /Invalid address hash/);
  t.throws(() => explorer.subscribe('blocks:new_block', () => undefined, { chainId: '9' }), /unknown chain/);

  const blocks: LiveEvent[] = [];
  const counts: LiveEvent[] = [];
  const stop = explorer.subscribe('blocks:new_block', (e) => blocks.push(e));
  explorer.subscribe('transactions:new_transaction', (e) => counts.push(e));
  const sender = chain.bundles.slice(5, 10).flatMap((b) => b.transactions)[0]?.from.toLowerCase() as string;
  const mine: LiveEvent[] = [];
  explorer.subscribe(`addresses:${sender}`, (e) => mine.push(e));
  const mixed: LiveEvent[] = [];
  explorer.subscribe(`addresses:${sender.toUpperCase().replace('0X', '0x')}`, (e) => mixed.push(e));

  await store.writeBlocks(chain.bundles.slice(5, 10));
  await settle(() => blocks.length >= 5 && mine.length > 0);
  t.same(blocks.map((e) => (e.payload['block'] as JsonObject)['height']), [5, 6, 7, 8, 9], 'new_block per block, ascending, once');
  t.ok(blocks.every((e) => e.event === 'new_block' && typeof e.payload['average_block_time'] === 'string'));
  for (const e of blocks) {
    const block = e.payload['block'] as JsonObject;
    const api = (await call(explorer, 'blocks', { query: { block_number: String(Number(block['height']) + 1), items_count: '1' } })).body as { readonly items: readonly JsonObject[] };
    t.same(block, api.items[0], `block ${String(block['height'])} equals the /blocks item`);
  }
  const txCount = chain.bundles.slice(5, 10).reduce((n, b) => n + b.transactions.length, 0);
  t.same(counts.map((e) => e.payload), txCount > 0 ? [{ transaction: txCount }] : [], 'transactions:new_transaction counts the batch');

  const txEvent = mine.find((e) => e.event === 'transaction');
  t.ok(txEvent, 'addresses:{hash} transaction');
  const api = (await call(explorer, 'addressTransactions', { params: { address_hash_param: sender } })).body as { readonly items: readonly JsonObject[] };
  for (const tx of (txEvent?.payload['transactions'] ?? []) as JsonObject[]) {
    const same = api.items.find((i) => i['hash'] === tx['hash']);
    t.same(tx, same, `transaction ${String(tx['hash']).slice(0, 10)} equals the /addresses/{h}/transactions item`);
  }
  t.same(mixed, [], 'a mixed-case topic is accepted but receives nothing (Blockscout)');

  stop();
  await store.writeBlocks(chain.bundles.slice(10, 11));
  await settle(() => counts.length >= 2);
  t.equal(blocks.length, 5, 'nothing after unsubscribe');
});

/** GET a stream and collect its text until `until` holds. */
function stream(url: string, headers: Record<string, string>, until: (text: string) => boolean): Promise<{ status: number; type: string; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      const done = (): void => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), text });
      };
      res.on('data', (chunk: string) => {
        text += chunk;
        if (until(text)) done();
      });
      res.on('end', done);
    });
    req.on('error', reject);
  });
}

t.test('GET /api/v2/events over HTTP', async (t) => {
  const store = createMemoryStore();
  await store.writeBlocks(chain.bundles.slice(0, 3));
  const explorer = createExplorer({ chains: { '1': { store, feed: store.feed } }, live: { maxTopics: 3 } });
  const app = new Koa();
  app.silent = true;
  const plan = { name: 'big', requestsPerSecond: 1000, credits: 100_000, creditPeriod: 'month' } as const;
  app.use(explorerMiddleware(explorer, { keys: [{ key: 'key-big', plan }], anonymousPlan: { ...plan, name: 'anon' } }));
  const s = await listen(app);
  t.teardown(() => s.close());

  // a new block arrives after a write
  const live = stream(`${s.url}/api/v2/events?topics=blocks:new_block`, {}, (text) => text.includes('event: new_block'));
  await new Promise((r) => setTimeout(r, 200));
  const before = Number(await store.getDataVersion());
  await store.writeBlocks(chain.bundles.slice(3, 4));
  const got = await live;
  t.equal(got.status, 200);
  t.match(got.type, /^text\/event-stream/);
  const data = /data: (.*)\n/.exec(got.text.slice(got.text.indexOf('event: new_block')))?.[1] as string;
  const parsed = JSON.parse(data) as { topic: string; payload: { block: JsonObject } };
  t.equal(parsed.topic, 'blocks:new_block');
  t.equal(parsed.payload.block['height'], 3);
  const id = /id: (\d+)\n/.exec(got.text)?.[1];
  t.equal(id, await store.getDataVersion(), 'the event id is the data version');

  // Last-Event-ID resumes after that version: what was missed arrives, once
  await store.writeBlocks(chain.bundles.slice(4, 6));
  const resumed = await stream(`${s.url}/api/v2/events?topics=blocks:new_block`, { 'last-event-id': String(before) }, (text) => (text.match(/event: new_block/g) ?? []).length >= 3);
  t.same(
    [...resumed.text.matchAll(/"height":(\d+)/g)].map((m) => Number(m[1])),
    [3, 4, 5],
    'missed blocks replayed in order',
  );

  // multichain form: through the same steps (a key, as the multichain form requires)
  t.equal((await fetch(`${s.url}/1/api/v2/events?topics=blocks:new_block`)).status, 401, 'the multichain form wants a key');
  const multi = stream(`${s.url}/1/api/v2/events?topics=blocks:new_block&apikey=key-big`, {}, (text) => text.includes('event: new_block'));
  await new Promise((r) => setTimeout(r, 200));
  await store.writeBlocks(chain.bundles.slice(6, 7));
  t.match((await multi).text, /"height":6/, 'the multichain form streams too');

  const bad = await fetch(`${s.url}/api/v2/events?topics=nope:x`);
  t.equal(bad.status, 422, 'a topic that cannot be joined');
  t.match(await bad.json(), { errors: [{ detail: /unmatched topic/ }] });
  t.equal((await fetch(`${s.url}/api/v2/events?topics=addresses:0x12`)).status, 422, 'an invalid address topic');
  t.equal((await fetch(`${s.url}/api/v2/events`)).status, 422, 'no topics');
  t.equal((await fetch(`${s.url}/api/v2/events?topics=blocks:new_block,tokens:a,tokens:b,tokens:c`)).status, 422, 'more topics than the cap');
  t.equal((await fetch(`${s.url}/9/api/v2/events?topics=blocks:new_block&apikey=key-big`)).status, 404, 'an unknown chain');
});

t.test('hub.publish: to the topic\'s subscribers, after the queued changes, not replayed', async (t) => {
  const store = createMemoryStore();
  await store.writeBlocks(chain.bundles.slice(0, 5));
  const hub = createLiveHub(store, store.feed, { ipfsGateway: 'https://ipfs.io/ipfs/' });
  const topic = 'addresses:0x00000000000000000000000000000000000000c0';
  hub.publish(topic, 'verification_result', { status: 'success' }); // nobody follows it: dropped
  const order: string[] = [];
  const heard: LiveEvent[] = [];
  hub.subscribe('blocks:new_block', (e) => order.push(`${e.event} ${String((e.payload['block'] as JsonObject)['height'])}`));
  hub.subscribe(topic, (e) => {
    heard.push(e);
    order.push(e.event);
  });
  await store.writeBlocks(chain.bundles.slice(5, 6));
  hub.publish(topic, 'verification_result', { status: 'success' });
  hub.publish('addresses:0x00000000000000000000000000000000000000c1', 'verification_result', { status: 'success' });
  await settle(() => heard.length > 0);
  await new Promise((r) => setTimeout(r, 50));
  t.same(order, [`new_block ${chain.bundles[5]?.block.number}`, 'verification_result'], 'after the change queued before it; once');
  t.strictSame(heard[0], { topic, event: 'verification_result', payload: { status: 'success' }, version: Number(await store.getDataVersion()) }, 'the version of the last change seen');
  const replayed = await hub.replay(0, new Set([topic]));
  t.same(replayed?.filter((e) => e.event === 'verification_result'), [], 'not replayed');
});
