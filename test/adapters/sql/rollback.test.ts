/**
 * The SQL DataSink, part 2: rollbackAbove at several heights and back, each step held against
 * the memory store given the same operations.
 */
import t from 'tap';
import { createMemoryStore } from '../../../adapters/memory/index.ts';
import { storeFactories } from '../../support/stores.ts';
import type { Store } from './scenario.ts';
import { bundles, compare, pending, snap, writeAll } from './scenario.ts';

const LIGHT = { limit: 25, stride: 10, light: true };
const factories = (await storeFactories()).filter((f) => f.name !== 'memory');
if (factories.length === 0) t.pass('no SQL store selected');

for (const factory of factories) {
  await t.test(`${factory.name}: rollbackAbove restores what the memory store has`, async (t) => {
    const store = await factory.open();
    t.teardown(() => store.close());
    const memory = createMemoryStore();
    for (const s of [store, memory] as Store[]) {
      await writeAll(s, bundles, 40);
      await s.writePendingTransactions(pending);
    }
    for (const height of [149, 120, 77, 30]) {
      await store.rollbackAbove(height);
      await memory.rollbackAbove(height);
      t.strictSame(await store.getIndexedHead(), await memory.getIndexedHead(), `head after rollbackAbove(${height})`);
      compare(t, await snap(store, LIGHT), await snap(memory, LIGHT), `after rollbackAbove(${height})`);
    }
    // and back up again, in other batch sizes
    const rest = bundles.filter((b) => b.block.number > 30);
    await writeAll(store, rest, 17);
    await writeAll(memory, rest, 17);
    compare(t, await snap(store, LIGHT), await snap(memory, LIGHT), 'rewritten after rollback');

    await store.rollbackAbove(-1);
    await memory.rollbackAbove(-1);
    t.equal(await store.getIndexedHead(), null, 'empty after rollbackAbove(-1)');
    t.equal(await store.getHighestBlockNumber(), null);
    compare(t, await snap(store, LIGHT), await snap(memory, LIGHT), 'after rollbackAbove(-1)');
  });
}
