/**
 * The SQL DataSink, part 1: idempotent rewrites and atomic batches, held against the state
 * before the call (and the memory store) through the digest of reads of the oracle test.
 * Shared scenario helpers live in scenario.ts.
 */
import t from 'tap';
import type { Test } from 'tap';
import { InvalidWriteError, createMemoryStore } from '../../../adapters/memory/index.ts';
import type { BlockBundle } from '../../../lib/domain/records.ts';
import { storeFactories } from '../../support/stores.ts';
import type { StoreFactory } from '../../support/stores.ts';
import { bundles, compare, emptyBundle, fakeHash, head, pending, snap, writeAll } from './scenario.ts';

const factories = (await storeFactories()).filter((f) => f.name !== 'memory');

/** A SQL store and a memory store, both holding the scenario's first 100 blocks. */
async function loadedPair(t: Test, factory: StoreFactory) {
  const store = await factory.open();
  t.teardown(() => store.close());
  const memory = createMemoryStore();
  const base = bundles.slice(0, 100);
  await writeAll(store, base, 50);
  await writeAll(memory, base, 50);
  return { store, memory };
}
if (factories.length === 0) t.pass('no SQL store selected');

for (const factory of factories) {
  await t.test(`${factory.name}: writing the same blocks again changes nothing`, async (t) => {
    const store = await factory.open();
    t.teardown(() => store.close());
    await writeAll(store, bundles, 40);
    await store.writePendingTransactions(pending);
    const before = await snap(store);
    await store.writeBlocks(bundles);
    await writeAll(store, bundles, 13);
    await store.writePendingTransactions(pending);
    await store.writePendingTransactions([...pending].reverse());
    compare(t, await snap(store), before, 'after rewrites');
    t.strictSame(await store.getIndexedHead(), { number: head.block.number, hash: head.block.hash });
  });
  await t.test(`${factory.name}: a failing batch leaves nothing behind`, async (t) => {
    const { store, memory } = await loadedPair(t, factory);
    const before = await snap(store);
    compare(t, before, await snap(memory), 'loaded');

    // rejected by the checks before anything is written
    const foreign = { ...bundles[100], transactions: bundles[101].transactions };
    await t.rejects(store.writeBlocks([bundles[100], foreign]), InvalidWriteError);
    await t.rejects(memory.writeBlocks([bundles[100], foreign]), InvalidWriteError);
    await t.rejects(store.writeBlocks([{ ...bundles[100], block: { ...bundles[100].block, number: 7 } }]), InvalidWriteError);

    // fails inside the database transaction, after a replacement already deleted a block:
    // a balance wider than uint256 does not fit numeric(78,0) nor the 78-digit SQLite key
    const replacement = emptyBundle(bundles[99].block, fakeHash('cccc', 99), true);
    const b = bundles[100];
    const first = b.tokenBalances[0];
    t.ok(first !== undefined, 'the block has a balance to break');
    const broken: BlockBundle = { ...b, tokenBalances: [...b.tokenBalances.slice(1), { ...first, value: 10n ** 80n }] };
    await t.rejects(store.writeBlocks([replacement, broken]));
    compare(t, await snap(store), before, 'after the failed batch');
    t.strictSame(await store.getBlock({ number: 99 }), bundles[99].block, 'the replaced block is still there');

    // the same failure on the append-only path (current values straight from the batch)
    await t.rejects(store.writeBlocks([broken, bundles[101]]));
    compare(t, await snap(store), before, 'after the failed append');
    await store.writeBlocks([bundles[100], bundles[101]]);
    await memory.writeBlocks([bundles[100], bundles[101]]);
    compare(t, await snap(store), await snap(memory), 'the same blocks written whole afterwards');
  });
}

for (const factory of factories) {
  await t.test(`${factory.name}: a bundle naming one balance, token or address twice keeps the later row, as memory does`, async (t) => {
    const { store, memory } = await loadedPair(t, factory);
    const b = bundles[100];
    const balance = b.tokenBalances[0];
    t.ok(balance !== undefined, 'the block has a balance to repeat');
    const twice: BlockBundle = {
      ...b,
      tokenBalances: [...b.tokenBalances, { ...balance, value: balance.value + 7n }],
      tokens: b.tokens.length === 0 ? b.tokens : [...b.tokens, { ...b.tokens[0], name: 'renamed later' }],
    };
    await store.writeBlocks([twice]);
    await memory.writeBlocks([twice]);
    compare(t, await snap(store), await snap(memory), 'same reads as memory');
    const held = await store.listTokenBalances({ holder: balance.holder }, { after: null, limit: 100, order: 'desc' });
    const row = held.find((h) => h.tokenAddress === balance.tokenAddress && h.tokenId === balance.tokenId);
    t.equal(row?.value, balance.value + 7n, 'the later balance is current');
  });
}
