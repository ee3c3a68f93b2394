/**
 * The SQL DataSink, part 3: non-consensus siblings, a consensus block replacing another at
 * the same height, and a block mining a pending transaction — each step held against the
 * memory store given the same operations.
 */
import t from 'tap';
import { createMemoryStore } from '../../../adapters/memory/index.ts';
import { storeFactories } from '../../support/stores.ts';
import type { Store } from './scenario.ts';
import { bundles, compare, extras, head, pending, snap, writeAll } from './scenario.ts';

const LIGHT = { limit: 25, stride: 10, light: true };
const factories = (await storeFactories()).filter((f) => f.name !== 'memory');
if (factories.length === 0) t.pass('no SQL store selected');

for (const factory of factories) {
  await t.test(`${factory.name}: reorgs, replacement and mined pending transactions`, async (t) => {
    const store = await factory.open();
    t.teardown(() => store.close());
    const memory = createMemoryStore();
    for (const s of [store, memory] as Store[]) {
      await writeAll(s, bundles, 40);
      await s.writePendingTransactions(pending);
    }
    const steps: [string, (s: Store) => Promise<void>][] = [
      ['a non-consensus sibling at 140', (s) => s.writeBlocks([extras[1]])],
      ['a new consensus block replaces the head', (s) => s.writeBlocks([extras[0]])],
      ['the old head comes back', (s) => s.writeBlocks([head])],
      ['a block mines a pending transaction', (s) => s.writeBlocks([extras[2]])],
      ['pending again after it was mined', (s) => s.writePendingTransactions(pending)],
      ['rollbackAbove(139)', (s) => s.rollbackAbove(139)],
      ['rewrite to the head', (s) => writeAll(s, bundles.filter((b) => b.block.number > 139), 5)],
    ];
    for (const [what, step] of steps) {
      await step(store);
      await step(memory);
      t.strictSame(await store.getIndexedHead(), await memory.getIndexedHead(), `head: ${what}`);
      compare(t, await snap(store, LIGHT), await snap(memory, LIGHT), what);
    }
  });
}
