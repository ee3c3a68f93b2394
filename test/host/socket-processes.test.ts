/**
 * Blockscout's socket across processes: `scoutkit index --follow` (a child process) follows anvil
 * (interval mining off: blocks are mined here with evm_mine) into a store, `scoutkit serve` (another
 * child process) serves it, and the official `phoenix` client in this process, over `ws`, joins
 * `blocks:new_block`, `transactions:new_transaction`, `transactions:new_pending_transaction` and
 * `addresses:{receiver}` — on SQLite (the serve process learns of writes by the data-version
 * poll) and on Postgres (LISTEN/NOTIFY; when DATABASE_URL is set or under CI=true: a database of
 * the test's own, created and dropped).
 *
 * - the pending flow: a transaction sent → `pending_transaction` (count, and the address's list
 *   equal to `/transactions?filter=pending`) → mined → `new_block`, `transaction` (count, and the
 *   address's list equal to `/addresses/{h}/transactions`), gone from the pending list;
 * - each block once, in block order, its payload equal to its `/blocks` item;
 * - a reorg while subscribed (`anvil_reorg`, then a block on top): as Blockscout with
 *   BLOCK_BROADCAST_TYPE=block (its default), the replaced heights come again as `new_block`
 *   with the new hashes (no message says heights were removed: nor does Blockscout's in that
 *   mode), and the reorged-in transaction reaches the address;
 * - the latency from commit (seen by a probe polling the store's head every 2 ms in this
 *   process) to delivery on the socket, p50/p99 over the blocks, printed.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Socket } from 'phoenix';
import type { Channel } from 'phoenix';
import t from 'tap';
import type { Test } from 'tap';
import WebSocket from 'ws';
import { openSqlStore } from '../../adapters/sql/index.ts';
import { startAnvil } from '../../demo/anvil.ts';
import type { JsonObject } from '../../lib/index.ts';
import { startCli, startServe } from '../support/children.ts';
import { databaseUrl, postgresUnreachable, selectedStoreNames } from '../support/stores.ts';
import { DEV_ACCOUNT0, DEV_ACCOUNT1, rpc } from '../indexer/helpers.ts';

const until = async (what: string, ok: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`waited in vain for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
};

const join_ = (channel: Channel): Promise<{ status: string; response: unknown }> =>
  new Promise((resolve) => {
    channel
      .join()
      .receive('ok', (response: unknown) => resolve({ status: 'ok', response }))
      .receive('error', (response: unknown) => resolve({ status: 'error', response }));
  });

const percentile = (xs: readonly number[], p: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
};

/** a database of the test's own on the Postgres of DATABASE_URL: its URL, and drop */
async function ownDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `scoutkit_live_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(databaseUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: databaseUrl() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

interface Received {
  readonly at: number;
  readonly payload: JsonObject;
}

async function proof(t: Test, store: 'sqlite' | 'postgres', db: string): Promise<void> {
  const anvil = await startAnvil();
  t.teardown(() => anvil.stop());
  await rpc(anvil.url, 'evm_setAutomine', [false]);
  await rpc(anvil.url, 'evm_mine', []);
  // migrated here first: the two children start side by side
  const reader = await openSqlStore(db);
  t.teardown(() => reader.close());
  const index = startCli(['index', '--rpc', anvil.url, '--db', db, '--follow', '--batch', '5']);
  t.teardown(() => index.stop());
  const serving = startServe(['--db', db]);
  await index.waitFor(/indexing chain 31337/, 40_000);
  const { child: serve, url } = await serving;
  t.teardown(() => serve.stop());
  const api = async (path: string): Promise<JsonObject> => (await (await fetch(`${url}/api/v2${path}`)).json()) as JsonObject;
  const items = async (path: string): Promise<JsonObject[]> => (await api(path))['items'] as JsonObject[];
  const nodeHead = async (): Promise<number> => Number(await rpc(anvil.url, 'eth_blockNumber', []));
  const stored = async (): Promise<number> => (await reader.getHighestBlockNumber()) ?? -1;
  await until('caught up', async () => (await stored()) >= (await nodeHead()), 30_000);

  // the commit probe: when each height first shows in the store (another connection, this process)
  const committed = new Map<number, number>();
  let probing = true;
  let seen = await stored();
  const probe = (async () => {
    while (probing) {
      const head = await reader.getHighestBlockNumber().catch(() => null);
      // a write of several blocks commits them at once
      if (head !== null && head > seen) for (const at = Date.now(); seen < head; ) committed.set(++seen, at);
      await new Promise((r) => setTimeout(r, 2));
    }
  })();
  t.teardown(async () => {
    probing = false;
    await probe;
  });

  const socket = new Socket(`${url.replace(/^http/, 'ws')}/socket/v2`, { transport: WebSocket, params: {} });
  socket.connect();
  t.teardown(() => socket.disconnect());
  const blocks: Received[] = [];
  const counts: number[] = [];
  const pendingCounts: number[] = [];
  const mined: JsonObject[] = [];
  const pending: JsonObject[] = [];
  const receiver = DEV_ACCOUNT1.toLowerCase();
  const channels = {
    blocks: socket.channel('blocks:new_block', {}),
    txs: socket.channel('transactions:new_transaction', {}),
    pending: socket.channel('transactions:new_pending_transaction', {}),
    address: socket.channel(`addresses:${receiver}`, {}),
  };
  channels.blocks.on('new_block', (p: JsonObject) => void blocks.push({ at: Date.now(), payload: p }));
  channels.txs.on('transaction', (p: { transaction: number }) => void counts.push(p.transaction));
  channels.pending.on('pending_transaction', (p: { pending_transaction: number }) => void pendingCounts.push(p.pending_transaction));
  channels.address.on('transaction', (p: { transactions: JsonObject[] }) => void mined.push(...p.transactions));
  channels.address.on('pending_transaction', (p: { transactions: JsonObject[] }) => void pending.push(...p.transactions));
  for (const [name, channel] of Object.entries(channels)) t.same(await join_(channel), { status: 'ok', response: {} }, `${channel.topic} joined (${name})`);

  const heightOf = (r: Received): number => Number((r.payload['block'] as JsonObject)['height']);
  const hashOf = (r: Received): string => String((r.payload['block'] as JsonObject)['hash']);
  const blockItem = async (height: number): Promise<JsonObject | undefined> => (await items(`/blocks?block_number=${height + 1}&items_count=1`))[0];
  const latencies: number[] = [];
  const measure = (from: number): void => {
    for (const r of blocks.slice(from)) {
      const at = committed.get(heightOf(r));
      if (at !== undefined) latencies.push(r.at - at);
    }
  };
  const start = await nodeHead();

  // the pending flow, three times: sent → pending → mined
  const ROUNDS = 3;
  for (let i = 0; i < ROUNDS; i++) {
    const [b0, p0, m0] = [blocks.length, pending.length, mined.length];
    const hash = (await rpc(anvil.url, 'eth_sendTransaction', [{ from: DEV_ACCOUNT0, to: DEV_ACCOUNT1, value: '0x3e8' }])) as string;
    await until(`${hash} pending on the socket`, () => pending.length > p0);
    t.same(pending.slice(p0).map((x) => x['hash']), [hash], `round ${i + 1}: pending_transaction on addresses:{h}, once`);
    const pendingItem = (await items('/transactions?filter=pending')).find((x) => x['hash'] === hash);
    t.same(pending[p0], pendingItem, `round ${i + 1}: the pending payload equals its /transactions?filter=pending item`);
    await rpc(anvil.url, 'evm_mine', []);
    await until(`${hash} mined on the socket`, () => mined.length > m0 && blocks.length > b0);
    t.same(mined.slice(m0).map((x) => x['hash']), [hash], `round ${i + 1}: transaction on addresses:{h}, once`);
    const minedItem = (await items(`/addresses/${receiver}/transactions`)).find((x) => x['hash'] === hash);
    t.same(mined[m0], minedItem, `round ${i + 1}: the mined payload equals its /addresses/{h}/transactions item`);
    t.notOk((await items('/transactions?filter=pending')).some((x) => x['hash'] === hash), `round ${i + 1}: gone from the pending list`);
    measure(b0);
  }
  t.same(pendingCounts, Array(ROUNDS).fill(1), 'transactions:new_pending_transaction: {pending_transaction: 1} per send');

  // blocks mined one after the other, some in one write
  const QUICK = 12;
  const b1 = blocks.length;
  for (let i = 0; i < QUICK; i++) {
    await rpc(anvil.url, 'evm_mine', []);
    await new Promise((r) => setTimeout(r, i % 3 === 0 ? 400 : 40));
  }
  const head = await nodeHead();
  await until('the quick blocks on the socket', () => blocks.length >= b1 + QUICK);
  measure(b1);
  const heights = blocks.map(heightOf);
  t.same(heights, Array.from({ length: head - start }, (_, i) => start + 1 + i), 'new_block: each block once, in block order');
  t.same(counts, Array(ROUNDS).fill(1), 'transactions:new_transaction: {transaction: 1} per block with a transaction, none for empty blocks');
  for (const r of blocks) t.same(r.payload['block'], await blockItem(heightOf(r)), `block ${heightOf(r)} equals its /blocks item`);
  t.ok(blocks.every((r) => typeof r.payload['average_block_time'] === 'string'), 'average_block_time is a string');

  // a reorg while subscribed: the last 2 blocks replaced (one of them with a transaction to the receiver), then a block on top
  const b2 = blocks.length;
  const m2 = mined.length;
  const before = new Map(blocks.map((r) => [heightOf(r), hashOf(r)]));
  await rpc(anvil.url, 'anvil_reorg', [2, [[{ from: DEV_ACCOUNT0, to: DEV_ACCOUNT1, value: '0x7d0' }, 0]]]);
  await rpc(anvil.url, 'evm_mine', []);
  await until('the reorged blocks on the socket', () => blocks.length >= b2 + 3);
  await new Promise((r) => setTimeout(r, 300));
  const after = blocks.slice(b2);
  t.same(after.map(heightOf), [head - 1, head, head + 1], 'after the reorg: the replaced heights again, then the new one, in order');
  t.ok(after.slice(0, 2).every((r) => hashOf(r) !== before.get(heightOf(r))), 'with the new hashes');
  for (const r of after) t.same(r.payload['block'], await blockItem(heightOf(r)), `reorged block ${heightOf(r)} equals its /blocks item`);
  t.equal(mined.length, m2 + 1, 'the reorged-in transaction reaches addresses:{h} once');
  t.same(mined[m2], (await items(`/addresses/${receiver}/transactions`)).find((x) => x['hash'] === mined[m2]?.['hash']), 'equal to its /addresses/{h}/transactions item');
  t.ok(index.lines.some((l) => /reorg at block/.test(l.text)), 'the indexer said it rolled back');

  t.ok(latencies.length >= ROUNDS + QUICK - 2, `${latencies.length} blocks timed`);
  t.comment(
    `${store} (${store === 'sqlite' ? 'data-version poll, 100 ms' : 'LISTEN/NOTIFY'}): commit → socket delivery over ${latencies.length} blocks: p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms, max ${Math.max(...latencies)} ms`,
  );
}

const stores = selectedStoreNames();
t.test('sqlite: index --follow and serve in two processes, the phoenix client', { skip: !stores.includes('sqlite') }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'scoutkit-live-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  await proof(t, 'sqlite', `sqlite:${join(dir, 'live.sqlite')}`);
});

const wantPostgres = stores.includes('postgres') && ((process.env.DATABASE_URL ?? '') !== '' || process.env.CI === 'true');
t.test('postgres: index --follow and serve in two processes, the phoenix client', { skip: !wantPostgres && 'no DATABASE_URL' }, async (t) => {
  const unreachable = await postgresUnreachable();
  if (unreachable !== null) throw new Error(`Postgres (${databaseUrl()}): ${unreachable}`);
  const db = await ownDatabase();
  t.teardown(() => db.drop());
  await proof(t, 'postgres', db.url);
});
