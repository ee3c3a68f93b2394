/**
 * DataSource.getDataVersion on SQL stores: it changes with every write, rollback and pending
 * write — also when another connection (another process: `scoutkit index`) wrote — so an
 * explorer's cached answers never outlive the data.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { openSqlStore } from '../../../adapters/sql/index.ts';
import { createExplorer } from '../../../lib/index.ts';
import { buildFixtureChain } from '../../../fixture/index.ts';

const chain = buildFixtureChain();
const dir = mkdtempSync(join(tmpdir(), 'scoutkit-version-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

t.test('a writer on another connection invalidates a reader’s cached answers', async (t) => {
  const file = `sqlite:${join(dir, 'shared.sqlite')}`;
  const writer = await openSqlStore(file);
  const reader = await openSqlStore(file);
  t.teardown(async () => {
    await reader.close();
    await writer.close();
  });
  // versionPollMs 0: ask on every request (the default polls at most every 100 ms: test/lib/cache-version.test.ts)
  const ex = createExplorer({ chains: { '1': reader }, cache: { versionPollMs: 0 } });
  const head = async () => ((await ex.handle({ path: '/api/v2/blocks', query: { items_count: '1' } })).body as { items: { height: number }[] }).items[0]?.height;

  await writer.writeBlocks(chain.bundles.slice(0, 10));
  const v1 = await reader.getDataVersion();
  t.equal(await head(), 9);
  t.equal(await head(), 9, 'cached');

  await writer.writeBlocks(chain.bundles.slice(0, 10));
  t.equal(await reader.getDataVersion(), v1, 'rewriting stored blocks changes nothing, not even the version');

  await writer.writeBlocks(chain.bundles.slice(10, 20));
  t.not(await reader.getDataVersion(), v1);
  t.equal(await head(), 19, 'the new blocks are seen');

  await writer.rollbackAbove(14);
  t.equal(await head(), 14, 'the rollback is seen');

  const before = await reader.getDataVersion();
  await writer.writePendingTransactions(chain.pending.slice(0, 2));
  t.not(await reader.getDataVersion(), before, 'pending writes change the version');
  const pending = (await ex.handle({ path: '/api/v2/transactions', query: { filter: 'pending' } })).body as { items: unknown[] };
  t.equal(pending.items.length, 2);
});
