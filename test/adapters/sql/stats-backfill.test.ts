/**
 * Migration 009 on a store that already holds blocks: its backfill gives the chain statistics
 * the writer keeps (dropping the tables and migrating again changes no answer). SQL stores only.
 */
import t from 'tap';
import * as m009 from '../../../adapters/sql/migrations/009_chain_stats.ts';
import * as m014 from '../../../adapters/sql/migrations/014_coin_supply.ts';
import { loadFixtureChain } from '../../../fixture/index.ts';
import type { VersionedDataSource } from '../../../lib/ports.ts';
import { storeFactories } from '../../support/stores.ts';

const ALL_DAYS = { from: '2000-01-01', to: '2100-01-01' };

async function statistics(s: VersionedDataSource) {
  return {
    counters: await s.getChainCounters(),
    days: await s.listDailyStats(ALL_DAYS),
    activity: await s.listContractActivity({ window: { days: ALL_DAYS } }, { after: null, limit: 1000, order: 'desc' }),
  };
}

for (const factory of (await storeFactories()).filter((f) => f.name !== 'memory')) {
  t.test(`${factory.name}: migration 009 backfills the statistics of stored blocks`, async (t) => {
    const store = await factory.open();
    t.teardown(() => store.close());
    const chain = await loadFixtureChain(store);
    const kept = await statistics(store);
    t.equal(kept.counters.blocks, chain.facts.blockCount, 'the writer counted the fixture blocks');
    t.ok(kept.activity.length >= 10 && kept.days.length === 1, 'contract activity and one day kept');
    const knex = (store as unknown as { knex: Parameters<typeof m009.up>[0] }).knex;
    // 014 adds the supply columns to 009's chain_counters: taken off and put back around it
    await m014.down(knex);
    await m009.down(knex);
    await m009.up(knex);
    await m014.up(knex);
    t.same(await statistics(store), kept, 'the backfill equals what the writer kept');
  });
}
