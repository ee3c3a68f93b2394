/**
 * The change feed over memory, SQLite and Postgres (SCOUTKIT_STORES): writes, rollbacks,
 * pending writes and drops each emit one change, in version order, saying what changed; another store
 * object on the same database (another connection: Postgres NOTIFY, SQLite's version poll)
 * sees each change once; `since` replays what a listener missed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { Test } from 'tap';
import { createMemoryStore } from '../../../adapters/memory/index.ts';
import { openSqlStore } from '../../../adapters/sql/index.ts';
import { buildFixtureChain } from '../../../fixture/index.ts';
import type { Change, ChangeFeed, DataSink, DataSource } from '../../../lib/index.ts';
import { databaseUrl, postgresUnreachable, selectedStoreNames } from '../../support/stores.ts';

const chain = buildFixtureChain();
const dir = mkdtempSync(join(tmpdir(), 'scoutkit-feed-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

type Store = DataSource & DataSink & { readonly feed: ChangeFeed; close?(): Promise<void> };

/** the store, and (SQL) a second store on the same database, as another process would open it */
async function open(name: string, t: Test): Promise<{ store: Store; other?: Store } | null> {
  if (name === 'memory') return { store: createMemoryStore() };
  if (name === 'sqlite') {
    const url = `sqlite:${join(dir, 'feed.sqlite')}`;
    const store = await openSqlStore(url);
    const other = await openSqlStore(url);
    t.teardown(async () => {
      await other.close();
      await store.close();
    });
    return { store, other };
  }
  const why = await postgresUnreachable();
  if (why !== null) return null;
  const searchPath = `feed_${process.pid}_${Date.now()}`;
  const store = await openSqlStore(databaseUrl(), { searchPath });
  const other = await openSqlStore(databaseUrl(), { searchPath });
  t.teardown(async () => {
    await other.close();
    await store.knex.raw(`drop schema if exists "${searchPath}" cascade`);
    await store.close();
  });
  return { store, other };
}

const until = async (ok: () => boolean, what: string): Promise<void> => {
  for (let i = 0; i < 500 && !ok(); i++) await new Promise((r) => setTimeout(r, 20));
  if (!ok()) throw new Error(`waited in vain for ${what}`);
};

for (const name of selectedStoreNames()) {
  t.test(name, async (t) => {
    const opened = await open(name, t);
    if (opened === null) {
      t.comment('Postgres unreachable: skipped');
      return;
    }
    const { store, other } = opened;
    const seen: Change[] = [];
    const unsubscribe = store.feed.subscribe((c) => seen.push(c));
    const remote: Change[] = [];
    const unsubscribeRemote = other?.feed.subscribe((c) => remote.push(c));
    // the remote feed starts listening asynchronously
    await new Promise((r) => setTimeout(r, 300));

    await store.writeBlocks(chain.bundles.slice(0, 5));
    t.equal(seen.length, 1, 'one change per write, delivered synchronously after the commit');
    const first = seen[0] as Change;
    t.same(first.blocks, { from: 0, to: 4 });
    t.equal(first.rolledBackTo, null);
    const txs = chain.bundles.slice(0, 5).flatMap((b) => b.transactions.map((x) => x.hash));
    t.same([...first.transactions].sort(), [...txs].sort(), 'the transactions of the blocks');
    const froms = new Set(chain.bundles.slice(0, 5).flatMap((b) => b.transactions.map((x) => x.from.toLowerCase())));
    t.ok([...froms].every((a) => first.addresses.includes(a as never)), 'the senders are touched');
    const tokens = new Set(chain.bundles.slice(0, 5).flatMap((b) => b.tokenTransfers.map((x) => x.tokenAddress.toLowerCase())));
    t.same([...first.tokens].sort(), [...tokens].sort(), 'the tokens transferred');
    t.equal(String(first.version), await store.getDataVersion?.(), 'the new data version');

    await store.writeBlocks(chain.bundles.slice(0, 5));
    t.equal(seen.length, 1, 'rewriting stored blocks changes nothing: no change');

    await store.writeBlocks(chain.bundles.slice(5, 10));
    await store.rollbackAbove(7);
    await store.writePendingTransactions(chain.pending.slice(0, 2));
    const dropped = chain.pending.slice(0, 1).map((p) => p.hash);
    await store.dropPendingTransactions?.(dropped);
    t.equal(seen.length, 5);
    t.same(seen[1]?.blocks, { from: 5, to: 9 });
    t.equal(seen[2]?.rolledBackTo, 7, 'the rollback marker');
    t.equal(seen[2]?.blocks, null);
    t.same(seen[3]?.pendingAdded, chain.pending.slice(0, 2).map((p) => p.hash), 'pending added');
    t.same([seen[4]?.pendingAdded, seen[4]?.pendingDropped], [[], dropped], 'pending dropped (replaced or gone from the pool)');
    const versions = seen.map((c) => c.version);
    t.same(versions, [...versions].sort((a, b) => a - b), 'in version order');

    const replay = await store.feed.since(first.version);
    t.same(
      replay?.map((c) => [c.version, c.blocks, c.rolledBackTo, c.pendingAdded, c.pendingDropped]),
      seen.slice(1).map((c) => [c.version, c.blocks, c.rolledBackTo, c.pendingAdded, c.pendingDropped]),
      'since: what a listener missed after a version',
    );

    if (other !== undefined) {
      await until(() => remote.length >= 5, 'the other connection to see the five changes');
      t.same(
        remote.map((c) => [c.version, c.blocks, c.rolledBackTo, c.pendingAdded, c.pendingDropped]),
        seen.map((c) => [c.version, c.blocks, c.rolledBackTo, c.pendingAdded, c.pendingDropped]),
        'another connection sees each change once, in order',
      );
      t.same([...(remote[0]?.transactions ?? [])].sort(), [...txs].sort(), 'the detail read through the ports');
      // a listener that went away catches up from the last version it saw
      unsubscribeRemote?.();
      await store.writeBlocks(chain.bundles.slice(8, 12));
      const missed = await other.feed.since(remote[remote.length - 1]?.version ?? 0);
      t.same(missed?.map((c) => c.blocks), [{ from: 8, to: 11 }], 'reconnect: caught up from the log');
    }
    unsubscribe();
  });
}
