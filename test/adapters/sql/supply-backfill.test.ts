/**
 * Migration 014 on a store that already holds blocks: its count of the coin supply from
 * address_counters equals what the writer keeps (dropping the columns and migrating again
 * changes no answer), and equals the memory store's. SQL stores only.
 */
import t from 'tap';
import * as m014 from '../../../adapters/sql/migrations/014_coin_supply.ts';
import { createMemoryStore } from '../../../adapters/memory/index.ts';
import { loadFixtureChain } from '../../../fixture/index.ts';
import { storeFactories } from '../../support/stores.ts';

const memory = createMemoryStore();
await loadFixtureChain(memory);
const expected = await memory.getChainCounters();

for (const factory of (await storeFactories()).filter((f) => f.name !== 'memory')) {
  t.test(`${factory.name}: migration 014 counts the coin supply of stored blocks`, async (t) => {
    const store = await factory.open();
    t.teardown(() => store.close());
    await loadFixtureChain(store);
    const kept = await store.getChainCounters();
    t.ok(kept.coinSupply > 0n, `the writer kept a supply (${kept.coinSupply} wei)`);
    t.same(kept, expected, 'the writer kept the memory store’s counters');
    const knex = (store as unknown as { knex: Parameters<typeof m014.up>[0] }).knex;
    await m014.down(knex);
    await m014.up(knex);
    t.same(await store.getChainCounters(), kept, 'the backfill equals what the writer kept');
  });
}
