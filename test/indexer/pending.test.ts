/**
 * The pending pool, followed (anvil with automine off, over memory and SQLite — and Postgres
 * when SCOUTKIT_STORES names it): a transaction sent appears within the follow loop in
 * `/transactions?filter=pending` and `/transactions/{h}` in Blockscout's pending shape, and
 * `transactions:new_pending_transaction` says so; a replacement (same nonce, higher fee) drops
 * the one it replaces; mined, it is in its block and no longer pending. `pending: false` reads
 * no pool. And the fallbacks: a node without txpool_content is read through a pending filter,
 * one without either through the pending block, one without any says so once.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import type { Test } from 'tap';
import { createRpcChainSource } from '../../adapters/rpc/index.ts';
import { createMemoryStore } from '../../adapters/memory/index.ts';
import { startAnvil } from '../../demo/anvil.ts';
import type { Change, ChangeFeed, LiveEvent } from '../../lib/index.ts';
import { createExplorer, toJson } from '../../lib/index.ts';
import { createIndexer } from '../../lib/indexer/index.ts';
import type { DataSink, DataSource } from '../../lib/ports.ts';
import type { Hash } from '../../lib/domain/records.ts';
import { INDEX_HELP, parseIndexArgs } from '../../host/commands/index.ts';
import { storeFactories } from '../support/stores.ts';
import { DEV_ACCOUNT0, DEV_ACCOUNT1, rpc, toHex } from './helpers.ts';

type Body = Record<string, unknown>;
const GWEI = 1_000_000_000n;

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`waited in vain for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** a type-2 transfer from account 0, not mined (automine off) */
const send = (url: string, nonce: number, tipGwei: bigint, value = 1000n): Promise<string> =>
  rpc(url, 'eth_sendTransaction', [
    { from: DEV_ACCOUNT0, to: DEV_ACCOUNT1, value: toHex(value), gas: toHex(21000), nonce: toHex(nonce), maxFeePerGas: toHex(100n * GWEI + tipGwei * GWEI), maxPriorityFeePerGas: toHex(tipGwei * GWEI) },
  ]) as Promise<string>;

/** follow the node into the store, with an explorer over it (`stop` ends the run) */
function follow(url: string, store: DataSource & DataSink & { readonly feed?: ChangeFeed }, options: { pending?: boolean } = {}) {
  const logs: string[] = [];
  const controller = new AbortController();
  const run = createIndexer({
    source: createRpcChainSource(url, { retry: { retries: 2, baseDelayMs: 50 } }),
    sink: store,
    pollIntervalMs: 100,
    log: (line) => logs.push(line),
    ...(options.pending === false ? { pending: false } : {}),
  }).run({ follow: true, signal: controller.signal });
  const stop = async (): Promise<void> => {
    controller.abort();
    await run;
  };
  const explorer = createExplorer({ chains: { '1': store.feed === undefined ? { store } : { store, feed: store.feed } }, cache: { maxEntries: 0 } });
  const get = async (path: string, query: Record<string, string> = {}): Promise<{ status: number; body: Body }> => {
    const r = await explorer.handle({ path: `/api/v2${path}`, query });
    return { status: r.status, body: JSON.parse(toJson(r.body)) as Body };
  };
  const pendingHashes = async (): Promise<string[]> => ((await get('/transactions', { filter: 'pending' })).body['items'] as Body[]).map((i) => i['hash'] as string);
  return { logs, explorer, get, pendingHashes, stop };
}

for (const factory of await storeFactories()) {
  t.test(`${factory.name}: sent → pending → replaced → mined`, async (t) => {
    const anvil = await startAnvil();
    await rpc(anvil.url, 'evm_setAutomine', [false]);
    const store = await factory.open();
    const changes: Change[] = [];
    const feed = (store as { feed?: ChangeFeed }).feed;
    if (feed === undefined) throw new Error('the store has no change feed');
    const unfeed = feed.subscribe((c) => changes.push(c));
    const { logs, explorer, get, pendingHashes, stop } = follow(anvil.url, store);
    const events: LiveEvent[] = [];
    const unsubscribe = explorer.subscribe('transactions:new_pending_transaction', (e) => events.push(e));
    t.teardown(async () => {
      unsubscribe();
      unfeed();
      await stop();
      await store.close();
      await anvil.stop();
    });
    await until('the pool read once', async () => (logs.some((l) => l.startsWith('pending pool: 0 transaction')) ? true : undefined));
    t.ok(logs.includes('pending pool: read with txpool_content (the whole pool each turn), at most 5000 transactions a turn'), 'the start-up log says how the pool is read');

    const t0 = Date.now();
    const first = await send(anvil.url, 0, 1n);
    await until('the transaction pending in the API', async () => ((await pendingHashes()).includes(first) ? true : undefined));
    t.comment(`pending in the API ${Date.now() - t0} ms after it was sent (poll 100 ms)`);
    const detail = await get(`/transactions/${first}`);
    t.equal(detail.status, 200, '/transactions/{h} answers a pending transaction');
    const gasPrice = BigInt(detail.body['gas_price'] as string);
    t.match(
      detail.body,
      {
        hash: first,
        result: 'pending',
        status: null,
        block_number: null,
        timestamp: null,
        position: null,
        confirmations: 0,
        confirmation_duration: [],
        base_fee_per_gas: null,
        gas_used: null,
        priority_fee: null,
        transaction_burnt_fee: null,
        is_pending_update: null,
        revert_reason: null,
        nonce: 0,
        type: 2,
        value: '1000',
        gas_limit: '21000',
        max_fee_per_gas: String(101n * GWEI),
        max_priority_fee_per_gas: String(GWEI),
        fee: { type: 'maximum', value: String(gasPrice * 21000n) },
        from: { hash: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' },
        to: { hash: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
        transaction_types: ['coin_transfer'],
        raw_input: '0x',
      },
      'the pending shape: no block, no status, result "pending", a maximum fee',
    );
    const item = ((await get('/transactions', { filter: 'pending' })).body['items'] as Body[]).find((i) => i['hash'] === first);
    t.same({ ...item, token_transfers: undefined, token_transfers_overflow: undefined }, { ...detail.body, token_transfers: undefined, token_transfers_overflow: undefined }, 'the list item is the detail (but its token transfers)');
    t.same((await get('/transactions')).body['items'], [], 'not among the validated ones');
    await until('the live event', async () => (events.length > 0 ? true : undefined));
    t.same(events.map((e) => [e.topic, e.event, e.payload]), [['transactions:new_pending_transaction', 'pending_transaction', { pending_transaction: 1 }]], 'transactions:new_pending_transaction with Blockscout’s counter');
    t.ok(changes.some((c) => c.pendingAdded.includes(first as never)), 'the change feed says it was added');

    // the same nonce at a higher fee: the node replaces it, and so does the store
    const second = await send(anvil.url, 0, 3n, 2000n);
    await until('the replacement pending', async () => {
      const hashes = await pendingHashes();
      return hashes.includes(second) && !hashes.includes(first) ? true : undefined;
    });
    t.equal((await get(`/transactions/${first}`)).status, 404, 'the replaced transaction is gone');
    t.equal((await get(`/transactions/${second}`)).body['result'], 'pending');
    t.ok(changes.some((c) => c.pendingDropped.includes(first as never)), 'the change feed says the replaced one was dropped');
    await until('the second live event', async () => (events.length > 1 ? true : undefined));

    // mined: in its block, no longer pending
    await rpc(anvil.url, 'evm_mine', []);
    const mined = await until('the transaction mined in the API', async () => {
      const r = await get(`/transactions/${second}`);
      return r.body['block_number'] === null ? undefined : r.body;
    });
    t.match(mined, { block_number: 1, status: 'ok', result: 'success', position: 0, confirmations: 1, fee: { type: 'actual' } }, 'mined: in block 1');
    t.same(await pendingHashes(), [], 'no longer pending');
    t.ok(changes.some((c) => c.blocks?.from === 1 && c.pendingDropped.includes(second as never)), 'the block’s change says it left the pool');
    t.equal(await store.countPendingTransactions({}), 0);
  });
}

t.test('scoutkit index: the pool is read by default, --no-pending turns it off', async (t) => {
  const base = ['--rpc', 'http://127.0.0.1:8545', '--db', 'memory:', '--follow'];
  t.same(parseIndexArgs(base), { rpc: 'http://127.0.0.1:8545', db: 'memory:', follow: true, reset: false }, 'default: no pending option (on)');
  t.same(parseIndexArgs([...base, '--no-pending']), { rpc: 'http://127.0.0.1:8545', db: 'memory:', follow: true, reset: false, pending: false });
  t.match(INDEX_HELP, /--no-pending {12}with --follow: do not read the node's pending pool/, 'the help says it');
});

t.test('pending: false reads no pool', async (t) => {
  const anvil = await startAnvil();
  await rpc(anvil.url, 'evm_setAutomine', [false]);
  const store = createMemoryStore();
  const { logs, pendingHashes, stop } = follow(anvil.url, store, { pending: false });
  t.teardown(async () => {
    await stop();
    await anvil.stop();
  });
  const hash = await send(anvil.url, 0, 1n);
  await until('the indexer caught up', async () => ((await store.getIndexedHead()) === null ? undefined : true));
  await new Promise((r) => setTimeout(r, 600)); // several turns of 100 ms
  t.same(await pendingHashes(), [], `${hash} is not read`);
  t.notOk(logs.some((l) => l.startsWith('pending pool')), 'nothing said of a pool');
});

/** anvil behind a proxy that answers some methods (`eth_getBlockByNumber` only for "pending") as a node that does not know them */
async function withoutMethods(t: Test, upstream: string, methods: readonly string[]): Promise<string> {
  const refused = (c: { method: string; params?: unknown[] }): boolean =>
    methods.includes(c.method) && (c.method !== 'eth_getBlockByNumber' || c.params?.[0] === 'pending');
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      void (async () => {
        const body = JSON.parse(raw) as unknown;
        const calls = (Array.isArray(body) ? body : [body]) as { id: unknown; method: string; params?: unknown[] }[];
        const answers = await Promise.all(
          calls.map(async (c) => {
            if (refused(c)) return { jsonrpc: '2.0', id: c.id, error: { code: -32601, message: `the method ${c.method} does not exist/is not available` } };
            const r = await fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(c) });
            return (await r.json()) as unknown;
          }),
        );
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(Array.isArray(body) ? answers : answers[0]));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

t.test('the fallbacks: a pending filter, the pending block, none', async (t) => {
  const anvil = await startAnvil();
  t.teardown(() => anvil.stop());
  await rpc(anvil.url, 'evm_setAutomine', [false]);

  const filterUrl = await withoutMethods(t, anvil.url, ['txpool_content']);
  const viaFilter = createRpcChainSource(filterUrl, { retry: { retries: 1, baseDelayMs: 20 } });
  t.equal(await viaFilter.pendingPoolMethod(), 'pending-filter', 'no txpool_content: a pending-transaction filter');
  t.same(await viaFilter.readPendingPool(10), { method: 'pending-filter', transactions: [], truncated: false }, 'made before any transaction: none seen yet');
  const a = await send(anvil.url, 0, 1n);
  const b = await send(anvil.url, 1, 1n);
  const seen = await viaFilter.readPendingPool(10);
  t.same(seen.transactions.map((x) => [x.hash, x.nonce]), [[a, 0], [b, 1]], 'both seen through the filter, by sender and nonce');
  const capped = createRpcChainSource(filterUrl);
  await capped.pendingPoolMethod();
  await send(anvil.url, 2, 1n);
  await send(anvil.url, 3, 1n);
  t.match(await capped.readPendingPool(1), { truncated: true, transactions: [{ nonce: 2 }] }, 'beyond the limit: truncated');
  const replacing = await send(anvil.url, 1, 5n);
  const after = await viaFilter.readPendingPool(10);
  t.ok(after.transactions.some((x) => x.hash === replacing) && !after.transactions.some((x) => x.hash === b), 'a replaced one leaves the filter’s pool, its replacement is in it');
  const late = createRpcChainSource(filterUrl);
  await late.pendingPoolMethod();
  t.same((await late.readPendingPool(10, [a, b] as Hash[])).transactions.map((x) => x.hash), [a], 'a filter made later: the known ones still in the pool are read (asked by hash), a replaced one is not');
  await rpc(anvil.url, 'evm_mine', []);
  // (anvil mines nonce 0 and drops the rest of a sender's queue behind a replacement)
  t.ok(await rpc(anvil.url, 'eth_getTransactionReceipt', [a]), 'the first mined');
  t.same(await rpc(anvil.url, 'txpool_content', []), { pending: {}, queued: {} }, 'the node’s pool is empty');
  t.same((await viaFilter.readPendingPool(10)).transactions, [], 'so is the pool read through the filter');

  const blockUrl = await withoutMethods(t, anvil.url, ['txpool_content', 'eth_newPendingTransactionFilter']);
  const viaBlock = createRpcChainSource(blockUrl);
  t.equal(await viaBlock.pendingPoolMethod(), 'pending-block', 'neither: the pending block');
  const next = Number(await rpc(anvil.url, 'eth_getTransactionCount', [DEV_ACCOUNT0, 'latest']));
  const c = await send(anvil.url, next, 1n);
  t.same((await viaBlock.readPendingPool(10)).transactions.map((x) => x.hash), [c], 'the pending block’s transactions');
  t.same((await viaBlock.readPendingPool(10)).transactions.map((x) => x.hash), [c], 'read again: the same');
  await rpc(anvil.url, 'evm_mine', []);
  t.same((await viaBlock.readPendingPool(10)).transactions, [], 'mined: no longer in the pending block, and asked by hash it is in a block');

  const noneUrl = await withoutMethods(t, anvil.url, ['txpool_content', 'eth_newPendingTransactionFilter', 'eth_getBlockByNumber']);
  const none = createRpcChainSource(noneUrl);
  t.equal(await none.pendingPoolMethod(), 'none');
  t.same(await none.readPendingPool(10), { method: 'none', transactions: [], truncated: false });

  // an indexer on a node without a pool says so once, and follows the blocks all the same
  const store = createMemoryStore();
  const logs: string[] = [];
  const controller = new AbortController();
  const run = createIndexer({ source: createRpcChainSource(noneUrl), sink: store, pollIntervalMs: 50, log: (l) => logs.push(l) }).run({ follow: true, signal: controller.signal });
  await until('a few turns', async () => ((await store.getIndexedHead()) === null ? undefined : true));
  await new Promise((r) => setTimeout(r, 400));
  await rpc(anvil.url, 'evm_mine', []);
  await until('the next block followed', async () => ((await store.getIndexedHead())?.number === 3 ? true : undefined));
  controller.abort();
  await run;
  t.same(logs.filter((l) => l.startsWith('pending pool')), ['pending pool: the node gives none (no txpool_content, no eth_newPendingTransactionFilter, no pending block): pending transactions are not indexed'], 'said once');
});
