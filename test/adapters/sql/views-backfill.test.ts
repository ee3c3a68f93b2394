/**
 * Migration 024 on a store that already holds blocks: its backfill of address_views from
 * addresses, tokens and proxy_implementations gives what the writer keeps, and both give the
 * memory store's getAddressViews. SQL stores only.
 */
import t from 'tap';
import { createMemoryStore } from '../../../adapters/memory/index.ts';
import * as m024 from '../../../adapters/sql/migrations/024_address_views.ts';
import { storeFactories } from '../../support/stores.ts';
import { bundles, keys, writeAll } from './scenario.ts';

const factories = (await storeFactories()).filter((f) => f.name !== 'memory');
if (factories.length === 0) t.pass('no SQL store selected');

const every = [...keys.addresses, ...keys.tokens];
const memory = createMemoryStore();
await writeAll(memory, bundles, 40);
const expected = await memory.getAddressViews(every);

for (const factory of factories) {
  await t.test(`${factory.name}: migration 024 backfills the address views of stored blocks`, async (t) => {
    const store = await factory.open();
    t.teardown(() => store.close());
    await writeAll(store, bundles, 40);
    t.ok(expected.some((v) => v.proxied && v.record === null) && expected.some((v) => v.tokenType !== null && v.record !== null), 'proxies without a record and tokens with one among them');
    t.strictSame(await store.getAddressViews(every), expected, "the writer's views equal the memory store's");
    const knex = (store as unknown as { knex: Parameters<typeof m024.up>[0] }).knex;
    await m024.down(knex);
    await m024.up(knex);
    t.strictSame(await store.getAddressViews(every), expected, 'the backfilled views equal them');
  });
}
