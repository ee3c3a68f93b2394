/**
 * The balance events and a reorg through Blockscout's socket, as the frontend receives them: the
 * official `phoenix` client joins addresses:{h} (lowercase) and blocks:new_block; a batch of
 * blocks brings `balance`, `coin_balance`, `current_coin_balance` and `updated_token_balances_*`
 * frames equal to the API's answers over HTTP; a rollback then a rewrite of the same heights
 * brings their new_block frames again, in order. With `live: { blockBroadcast: 'count' }` a batch
 * is one `new_blocks_count` frame.
 */
import { Socket } from 'phoenix';
import t from 'tap';
import WebSocket from 'ws';
import { createMemoryStore } from '../../adapters/memory/index.ts';
import { buildFixtureChain } from '../../fixture/index.ts';
import { createServer } from '../../host/index.ts';
import type { JsonObject } from '../../lib/index.ts';

const chain = buildFixtureChain();
const hot = chain.facts.hotAddress.toLowerCase();
const PLAN = { name: 'big', requestsPerSecond: 1_000_000, credits: 100_000_000, creditPeriod: 'month' } as const;

const until = async (ok: () => boolean, ms = 15_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};

const store = createMemoryStore();
await store.writeBlocks(chain.bundles.slice(0, 5));
const server = createServer({ chains: { '1': { store, feed: store.feed } }, log: false, docs: false, anonymousPlan: PLAN, metrics: false });
const { port } = await server.listen(0);
const http = `http://127.0.0.1:${port}/api/v2`;
const socket = new Socket(`ws://127.0.0.1:${port}/socket/v2`, { transport: WebSocket, params: {} });
socket.connect();
t.teardown(async () => {
  socket.disconnect();
  await server.close();
});

const frames: { event: string; payload: JsonObject }[] = [];
const heights: number[] = [];
const address = socket.channel(`addresses:${hot}`, {});
for (const event of ['balance', 'coin_balance', 'current_coin_balance', 'updated_token_balances_erc_20', 'updated_token_balances_erc_721', 'updated_token_balances_erc_1155']) {
  address.on(event, (payload: JsonObject) => void frames.push({ event, payload }));
}
const blocks = socket.channel('blocks:new_block', {});
blocks.on('new_block', (payload: { block: { height: number } }) => void heights.push(payload.block.height));
await Promise.all([address, blocks].map((c) => new Promise((resolve) => c.join().receive('ok', resolve))));

t.test('balance frames equal the API answers', async (t) => {
  const batch = chain.bundles.slice(5, 25);
  await store.writeBlocks(batch);
  await until(() => heights.length >= batch.length && frames.some((f) => f.event === 'balance'));
  await new Promise((r) => setTimeout(r, 100));
  const get = async (path: string): Promise<unknown> => (await fetch(`${http}${path}`)).json();

  const detail = (await get(`/addresses/${hot}`)) as JsonObject;
  const balance = frames.find((f) => f.event === 'balance');
  t.strictSame(balance?.payload, { balance: detail['coin_balance'], block_number: detail['block_number_balance_updated_at'], exchange_rate: null }, 'balance: /addresses/{h}');
  const coin = frames.find((f) => f.event === 'coin_balance');
  if (coin !== undefined) {
    const item = coin.payload['coin_balance'] as JsonObject;
    const history = (await get(`/addresses/${hot}/coin-balance-history`)) as { items: JsonObject[] };
    t.strictSame(item, history.items[0], 'coin_balance: the newest coin-balance-history item');
    t.strictSame(frames.find((f) => f.event === 'current_coin_balance')?.payload, { coin_balance: item['value'], exchange_rate: null, block_number: item['block_number'] }, 'current_coin_balance');
  } else {
    t.equal(frames.find((f) => f.event === 'current_coin_balance'), undefined, 'no current_coin_balance without coin_balance');
  }
  const tokenFrames = frames.filter((f) => f.event.startsWith('updated_token_balances_'));
  t.ok(tokenFrames.length > 0, `token balance frames: ${tokenFrames.map((f) => f.event).join(', ')}`);
  const all = (await get(`/addresses/${hot}/token-balances`)) as JsonObject[];
  const keyOf = (i: JsonObject): string => `${String((i['token'] as JsonObject)['address_hash'])}/${String(i['token_id'])}`;
  const byKey = new Map(all.map((i) => [keyOf(i), i]));
  for (const f of tokenFrames) {
    const items = f.payload['token_balances'] as JsonObject[];
    t.equal(typeof f.payload['overflow'], 'boolean', `${f.event}: overflow`);
    t.ok(items.length > 0 && items.length <= 50, `${f.event}: ${items.length} items`);
    t.strictSame(
      items.filter((i) => i['value'] !== '0'),
      items.filter((i) => i['value'] !== '0').map((i) => byKey.get(keyOf(i))),
      `${f.event}: items equal the token-balances items`,
    );
  }
});

t.test('a rollback and a rewrite: the heights sent again, in order', async (t) => {
  heights.length = 0;
  await store.rollbackAbove(20);
  await store.writeBlocks(chain.bundles.slice(21, 25));
  await until(() => heights.length >= 4);
  await new Promise((r) => setTimeout(r, 100));
  t.same(heights, [21, 22, 23, 24], 'new_block for each rewritten height, once, in order');
});

t.test("count mode (createServer({ live: { blockBroadcast: 'count' } })): one new_blocks_count per batch", async (t) => {
  const counted = createMemoryStore();
  await counted.writeBlocks(chain.bundles.slice(0, 5));
  const other = createServer({ chains: { '1': { store: counted, feed: counted.feed } }, log: false, docs: false, anonymousPlan: PLAN, metrics: false, live: { blockBroadcast: 'count' } });
  const { port: p } = await other.listen(0);
  const client = new Socket(`ws://127.0.0.1:${p}/socket/v2`, { transport: WebSocket, params: {} });
  client.connect();
  t.teardown(async () => {
    client.disconnect();
    await other.close();
  });
  const got: { event: string; payload: unknown }[] = [];
  const channel = client.channel('blocks:new_block', {});
  for (const event of ['new_block', 'new_blocks_count']) channel.on(event, (payload: unknown) => void got.push({ event, payload }));
  await new Promise((resolve) => channel.join().receive('ok', resolve));
  await counted.writeBlocks(chain.bundles.slice(5, 8));
  await until(() => got.length > 0);
  await new Promise((r) => setTimeout(r, 100));
  t.strictSame(got, [{ event: 'new_blocks_count', payload: { count: 3, type: 'block' } }], 'the batch counted, no new_block');
});
