/**
 * Reorgs made with anvil (evm_snapshot / evm_revert and new blocks at the same heights): the
 * store ends up holding only the node's canonical chain. And a store of one chain refuses a
 * node of another (chain id or genesis), until --reset.
 */
import t from 'tap';
import type { Hash } from '../../lib/domain/records.ts';
import { ChainMismatchError } from '../../lib/indexer/index.ts';
import type { IndexerEvent } from '../../lib/indexer/index.ts';
import { createMemoryStore } from '../../adapters/memory/index.ts';
import { startAnvil } from '../../demo/anvil.ts';
import { storeFactories } from '../support/stores.ts';
import type { TestStore } from '../support/stores.ts';
import { indexerFor, rpc, sendMined, toHex } from './helpers.ts';
import { checkSupplyAgainstNode } from './supply.ts';

async function send(url: string, value: bigint): Promise<Hash> {
  return (await sendMined(url, value)) as Hash;
}

async function nodeHashes(url: string): Promise<Hash[]> {
  const head = Number(await rpc(url, 'eth_blockNumber', []));
  const out: Hash[] = [];
  for (let n = 0; n <= head; n++) out.push(((await rpc(url, 'eth_getBlockByNumber', [toHex(n), false])) as { hash: Hash }).hash);
  return out;
}

async function storeHashes(store: TestStore): Promise<Hash[]> {
  const head = await store.getHighestBlockNumber();
  const out: Hash[] = [];
  for (let n = 0; head !== null && n <= head; n++) {
    const b = await store.getBlock({ number: n });
    out.push(b?.hash ?? ('0x' as Hash));
  }
  return out;
}

t.test('a reorg leaves only the canonical chain', async (t) => {
  for (const factory of await storeFactories()) {
    await t.test(factory.name, async (t) => {
      const anvil = await startAnvil();
      const store = await factory.open();
      t.teardown(async () => {
        await store.close();
        await anvil.stop();
      });
      for (let i = 1; i <= 3; i++) await send(anvil.url, BigInt(i));
      const snapshot = await rpc(anvil.url, 'evm_snapshot', []);
      const orphaned = [await send(anvil.url, 100n), await send(anvil.url, 101n)];
      const events: IndexerEvent[] = [];
      await indexerFor(anvil.url, store, { events }).run();
      t.equal(await store.getHighestBlockNumber(), 5);
      t.ok(await store.getTransaction(orphaned[0] as Hash), 'the soon-orphaned transaction is indexed');
      await checkSupplyAgainstNode(t, anvil.url, store, 'before the reorg');

      // same height, other blocks: the stored head is no longer the node's
      await rpc(anvil.url, 'evm_revert', [snapshot]);
      const replacing = [await send(anvil.url, 200n), await send(anvil.url, 201n)];
      await indexerFor(anvil.url, store, { events }).run();
      t.same(await storeHashes(store), await nodeHashes(anvil.url), 'same height: the store follows the node');
      for (const h of orphaned) t.equal(await store.getTransaction(h), null, `orphaned ${h} gone`);
      for (const h of replacing) t.ok(await store.getTransaction(h), `replacing ${h} indexed`);
      const reorg = events.find((e) => e.type === 'reorg');
      t.match(reorg, { type: 'reorg', commonAncestor: 3, depth: 2 }, 'reorg event with the common ancestor');
      await checkSupplyAgainstNode(t, anvil.url, store, 'after a reorg at the same height');

      // deeper and longer: revert again to block 3 and grow past the old head
      const snapshot2 = await rpc(anvil.url, 'evm_snapshot', []);
      await send(anvil.url, 300n);
      await indexerFor(anvil.url, store).run();
      await rpc(anvil.url, 'evm_revert', [snapshot2]);
      await rpc(anvil.url, 'anvil_reorg', [3, []]).catch(() => null); // anvil's own reorg, when present
      for (let i = 0; i < 4; i++) await send(anvil.url, 400n + BigInt(i));
      await indexerFor(anvil.url, store).run();
      t.same(await storeHashes(store), await nodeHashes(anvil.url), 'longer chain: the store follows the node');
      await checkSupplyAgainstNode(t, anvil.url, store, 'after a deeper reorg');
      const txs = await store.listTransactions({ status: 'validated' }, { after: null, limit: 100, order: 'desc' });
      const head = Number(await rpc(anvil.url, 'eth_blockNumber', []));
      const onNode: Hash[] = [];
      for (let n = 0; n <= head; n++) {
        onNode.push(...((await rpc(anvil.url, 'eth_getBlockByNumber', [toHex(n), false])) as { transactions: Hash[] }).transactions);
      }
      t.same(txs.map((x) => x.hash).sort(), onNode.sort(), "exactly the node's transactions, no leftovers");
    });
  }
});

t.test('follow mode picks up new blocks and reorgs until aborted', async (t) => {
  const anvil = await startAnvil();
  const store = createMemoryStore();
  t.teardown(() => anvil.stop());
  await send(anvil.url, 1n);
  const controller = new AbortController();
  const events: IndexerEvent[] = [];
  const running = indexerFor(anvil.url, store, { events }).run({ follow: true, signal: controller.signal });
  const until = async (check: () => Promise<boolean>): Promise<void> => {
    for (let i = 0; i < 100 && !(await check()); i++) await new Promise((r) => setTimeout(r, 50));
  };
  await until(async () => (await store.getHighestBlockNumber()) === 1);
  const snap = await rpc(anvil.url, 'evm_snapshot', []);
  await send(anvil.url, 2n);
  await until(async () => (await store.getHighestBlockNumber()) === 2);
  await rpc(anvil.url, 'evm_revert', [snap]);
  const replacing = await send(anvil.url, 3n);
  // in its block, not only seen in the pool (the indexer stores pending transactions too)
  await until(async () => ((await store.getTransaction(replacing))?.blockNumber ?? null) !== null);
  controller.abort();
  const summary = await running;
  t.same(await storeHashes({ ...store, close: async () => {} }), await nodeHashes(anvil.url), 'store = node');
  t.ok(summary.reorgs >= 1, 'the reorg was seen');
  t.ok(events.some((e) => e.type === 'caught-up'), 'caught-up events');
  t.ok(events.some((e) => e.type === 'progress'), 'progress events');
});

t.test('a store of another chain is refused; --reset starts over', async (t) => {
  const a = await startAnvil();
  const other = await startAnvil({ chainId: 31338 });
  t.teardown(async () => {
    await a.stop();
    await other.stop();
  });
  await send(a.url, 1n);
  const store = createMemoryStore();
  await indexerFor(a.url, store).run();
  t.equal(await store.getHighestBlockNumber(), 1);

  const err = await indexerFor(other.url, store).run().catch((e: unknown) => e);
  t.type(err, ChainMismatchError);
  t.match((err as Error).message, /chain id 31338.*chain id 31337.*--reset/);
  t.equal(await store.getHighestBlockNumber(), 1, 'the store is untouched');

  // same chain id, another genesis (a restarted dev chain)
  await a.stop();
  const restarted = await startAnvil({ args: ['--timestamp', '1000'] });
  t.teardown(() => restarted.stop());
  const err2 = await indexerFor(restarted.url, store).run().catch((e: unknown) => e);
  t.type(err2, ChainMismatchError);
  t.match((err2 as Error).message, /genesis.*was the node restarted\?.*--reset/);

  const logs: string[] = [];
  await indexerFor(restarted.url, store, { logs }).run({ reset: true });
  t.ok(logs.includes('reset: the store was emptied (it held chain 31337 up to block 1)'), 'the reset says what it emptied');
  const freshLogs: string[] = [];
  const freshEvents: IndexerEvent[] = [];
  await indexerFor(restarted.url, createMemoryStore(), { logs: freshLogs, events: freshEvents }).run({ reset: true });
  t.notOk(freshLogs.some((l) => l.startsWith('reset:')) || freshEvents.some((e) => e.type === 'reset'), 'a fresh store: nothing to reset, nothing said');
  const genesis = ((await rpc(restarted.url, 'eth_getBlockByNumber', ['0x0', false])) as { hash: Hash }).hash;
  t.equal((await store.getBlock({ number: 0 }))?.hash, genesis, 'after --reset the store holds the new chain');
  t.same(await store.getChainIdentity(), { chainId: 31337, genesisHash: genesis });
});
