/**
 * The port suite's harness: `storeTest(name, body)` runs `body` once per store that
 * SCOUTKIT_STORES selects (memory, SQLite, Postgres — see test/support/stores.ts), each on a
 * fresh, empty store closed after the test. Memory is the reference: every store must answer
 * exactly as it does.
 */
import t from 'tap';
import type { Test } from 'tap';
import { storeFactories } from '../support/stores.ts';
import type { TestStore } from '../support/stores.ts';

const factories = await storeFactories();

export function storeTest(name: string, body: (t: Test, s: TestStore) => Promise<void>): void {
  t.test(name, async (t) => {
    for (const factory of factories) {
      await t.test(factory.name, async (t) => {
        const store = await factory.open();
        t.teardown(() => store.close());
        await body(t, store);
      });
    }
  });
}
