/**
 * `user_operation` on `addresses:{sender}` through Blockscout's socket (scoutkit's own event:
 * Blockscout's user operations live in a separate service). The official `phoenix` client, over
 * `ws`, joins the topics of two accounts and of an address that never sends an operation, then
 * blocks carrying user operations are written: each account's topic gets
 * `{user_operations: [...]}` with exactly its own operations of the block, each item equal to the
 * /proxy/account-abstraction/operations item over HTTP (same order); a block without an
 * account's operations sends it nothing, nor does any block to the unrelated address. On the
 * memory store (the writer's own feed), on SQLite with the blocks written by a second handle
 * of the file (the serving store learns of them by the version poll, as a host sharing a store)
 * and on Postgres the same way (LISTEN/NOTIFY; when SCOUTKIT_STORES selects it and it answers).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Socket } from 'phoenix';
import type { Channel } from 'phoenix';
import t from 'tap';
import type { Test } from 'tap';
import WebSocket from 'ws';
import { createMemoryStore } from '../../adapters/memory/index.ts';
import { openSqlStore } from '../../adapters/sql/index.ts';
import { createServer } from '../../host/index.ts';
import type { ServerOptions } from '../../host/index.ts';
import { EMPTY_HEX } from '../../lib/index.ts';
import type { JsonObject } from '../../lib/index.ts';
import type { DataSink } from '../../lib/ports.ts';
import type { UserOperationRecord } from '../../lib/domain/userOperations.ts';
import { ENTRY_POINT_V06, ENTRY_POINT_V07 } from '../../lib/userops/index.ts';
import { block, bundle, tx } from '../ports/records.ts';
import { databaseUrl, postgresUnreachable, selectedStoreNames } from '../support/stores.ts';
import { ACCOUNT_1, ACCOUNT_2, FRIEND, userOp, writeUserOperationChain } from '../lib/endpoints/userOperationChain.ts';

const PLAN = { name: 'big', requestsPerSecond: 1_000_000, credits: 100_000_000, creditPeriod: 'month' } as const;

/** wait for a condition, with a generous cap (the machine may be loaded): no timed assertion */
const until = async (what: string, ok: () => boolean, ms = 60_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`waited in vain for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

const join_ = (channel: Channel): Promise<{ status: string; response: unknown }> =>
  new Promise((resolve) => {
    channel
      .join()
      .receive('ok', (response: unknown) => resolve({ status: 'ok', response }))
      .receive('error', (response: unknown) => resolve({ status: 'error', response }));
  });

interface Frame {
  readonly topic: string;
  readonly items: readonly JsonObject[];
}

async function proof(t: Test, served: ServerOptions['chains'][string], writer: DataSink): Promise<void> {
  await writeUserOperationChain(writer);
  const server = createServer({ chains: { '1': served }, log: false, docs: false, anonymousPlan: PLAN, metrics: false });
  const { port } = await server.listen(0);
  const http = `http://127.0.0.1:${port}/api/v2`;
  const socket = new Socket(`ws://127.0.0.1:${port}/socket/v2`, { transport: WebSocket, params: {} });
  socket.connect();
  t.teardown(async () => {
    socket.disconnect();
    await server.close();
  });

  const frames: Frame[] = [];
  const topics = [ACCOUNT_1, ACCOUNT_2, FRIEND].map((a) => `addresses:${a}`);
  for (const topic of topics) {
    const channel = socket.channel(topic, {});
    channel.on('user_operation', (p: { user_operations: JsonObject[] }) => void frames.push({ topic, items: p.user_operations }));
    t.same(await join_(channel), { status: 'ok', response: {} }, `${topic} joined`);
  }
  const heights: number[] = [];
  const blocks = socket.channel('blocks:new_block', {});
  blocks.on('new_block', (p: { block: { height: number } }) => void heights.push(p.block.height));
  t.same(await join_(blocks), { status: 'ok', response: {} }, 'blocks:new_block joined');

  // block 4: two operations of account 1 in one bundle, one of them reverted; block 5: one of each
  // account (two EntryPoints); block 6: account 2 alone. The hub sends changes in order on one
  // connection: once a block's frame is in, every frame of the earlier blocks is (so account 2's
  // topic having nothing of block 4, and the unrelated topic nothing, is known without a timer)
  const b4 = block(4);
  const b5 = block(5);
  const b6 = block(6);
  const t4 = tx(b4, 0, { to: ENTRY_POINT_V07 });
  const t5a = tx(b5, 0, { to: ENTRY_POINT_V07 });
  const t5b = tx(b5, 1, { to: ENTRY_POINT_V06 });
  const t6 = tx(b6, 0, { to: ENTRY_POINT_V07 });
  const ops: Record<string, UserOperationRecord> = {
    a4: userOp(t4, 'live-a4', { nonce: 10n }),
    a4r: userOp(t4, 'live-a4r', { nonce: 11n, index: 1, status: false, revertReason: EMPTY_HEX }),
    a5: userOp(t5a, 'live-a5', { nonce: 12n }),
    b5: userOp(t5b, 'live-b5', { sender: ACCOUNT_2, nonce: 10n, entryPoint: ENTRY_POINT_V06, entryPointVersion: 'v0.6' }),
    b6: userOp(t6, 'live-b6', { sender: ACCOUNT_2, nonce: 11n }),
  };
  const of = (t: { hash: string }) => Object.values(ops).filter((o) => o.transactionHash === t.hash);
  const hashesOf = (topic: string | undefined): string[][] => frames.filter((f) => f.topic === topic).map((f) => f.items.map((i) => String(i['hash'])));
  const has = (topic: string | undefined, op: UserOperationRecord | undefined): boolean => hashesOf(topic).some((h) => h.includes(op?.hash ?? '?'));
  // each block waited for before the next: one change per block, so one frame per block
  await writer.writeBlocks([bundle(b4, { transactions: [t4], userOperations: of(t4) })]);
  await until('account 1: block 4', () => has(topics[0], ops.a4));
  await writer.writeBlocks([bundle(b5, { transactions: [t5a, t5b], userOperations: [...of(t5a), ...of(t5b)] })]);
  await until('both accounts: block 5', () => has(topics[0], ops.a5) && has(topics[1], ops.b5));
  await writer.writeBlocks([bundle(b6, { transactions: [t6], userOperations: of(t6) })]);
  await until('account 2: block 6', () => has(topics[1], ops.b6));
  t.same(heights, [4, 5, 6], 'new_block for each block, in order');

  const desc = (...xs: (UserOperationRecord | undefined)[]): string[] => xs.map((o) => o?.hash ?? '').sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  t.same(hashesOf(topics[0]), [desc(ops.a4, ops.a4r), [ops.a5?.hash]], 'account 1: one frame per block holding its operations, nothing of account 2');
  t.same(hashesOf(topics[1]), [[ops.b5?.hash], [ops.b6?.hash]], "account 2: nothing for block 4 (account 1's), then its own of blocks 5 and 6");
  t.same(hashesOf(topics[2]), [], 'an address that sent no operation: no user_operation frame');

  // each item as the operations list renders it over HTTP, in its order
  for (const f of frames) {
    const sender = f.topic.slice('addresses:'.length);
    const number = String(f.items[0]?.['block_number']);
    const list = (await (await fetch(`${http}/proxy/account-abstraction/operations?sender=${sender}&block_number=${number}`)).json()) as { items: JsonObject[] };
    t.same(f.items, list.items, `…${sender.slice(-4)} block ${number}: the /operations items`);
    t.ok(f.items.every((i) => (i['address'] as JsonObject)['hash'] !== undefined && i['transaction_hash'] !== undefined), 'items carry the sender as an address object and the transaction');
  }
}

const stores = selectedStoreNames();

if (stores.includes('memory')) {
  await t.test('memory: user_operation on the sender topic', async (t) => {
    const store = createMemoryStore();
    await proof(t, { store, feed: store.feed }, store);
  });
}

if (stores.includes('sqlite')) {
  await t.test('sqlite: user_operation on the sender topic, written by another handle of the file', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'scoutkit-userop-socket-'));
    t.teardown(() => rm(dir, { recursive: true, force: true }));
    const db = `sqlite:${join(dir, 'chain.sqlite')}`;
    const writer = await openSqlStore(db);
    const served = await openSqlStore(db);
    t.teardown(async () => {
      await served.close();
      await writer.close();
    });
    await proof(t, { store: served, feed: served.feed }, writer);
  });
}

if (stores.includes('postgres')) {
  const reason = await postgresUnreachable();
  if (reason !== null && process.env.CI === 'true') throw new Error(`Postgres is required under CI: ${reason}`);
  if (reason === null) {
    await t.test('postgres: user_operation on the sender topic, written by another handle of the schema', async (t) => {
      const schema = `scoutkit_uo_${process.pid}_${randomBytes(4).toString('hex')}`;
      const writer = await openSqlStore(databaseUrl(), { searchPath: schema, poolSize: 4 });
      const served = await openSqlStore(databaseUrl(), { searchPath: schema, poolSize: 4 });
      t.teardown(async () => {
        await served.close();
        try {
          await writer.knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]);
        } finally {
          await writer.close();
        }
      });
      await proof(t, { store: served, feed: served.feed }, writer);
    });
  }
}
