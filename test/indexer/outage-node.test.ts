/**
 * A paused node under `scoutkit index --follow` (a child process): anvil mining a block a second
 * is SIGSTOPped for 30 s, then SIGCONT — the indexer waits, never exits, resumes by itself, and
 * its store equals a clean run's, list by list. The time to resume is printed (not asserted).
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createIndexer } from '../../lib/indexer/index.ts';
import { createRpcChainSource } from '../../adapters/rpc/index.ts';
import { openSqlStore } from '../../adapters/sql/index.ts';
import { startAnvil } from '../../demo/anvil.ts';
import { startCli, until } from '../support/children.ts';
import { chainKeys, digest } from '../adapters/sql/digest.ts';
import { recordingSink, rpc, sendMined } from './helpers.ts';

const PAUSE_MS = 30_000;

t.test('anvil SIGSTOPped for 30 s under index --follow: it resumes, nothing lost', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'scoutkit-pause-'));
  const anvil = await startAnvil();
  t.teardown(async () => {
    if (anvil.pid !== undefined) process.kill(anvil.pid, 'SIGCONT');
    await anvil.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  if (anvil.pid === undefined) throw new Error('anvil has no pid');
  for (let i = 1; i <= 3; i++) await sendMined(anvil.url, BigInt(i));
  await rpc(anvil.url, 'evm_setIntervalMining', [1]);
  const db = `sqlite:${join(dir, 'followed.sqlite')}`;
  const index = startCli(['index', '--rpc', anvil.url, '--db', db, '--follow', '--batch', '5']);
  t.teardown(() => index.stop());
  await index.waitFor(/indexing chain 31337/, 60_000);
  const reader = await openSqlStore(db, { migrate: false });
  t.teardown(() => reader.close());
  const nodeHead = async (): Promise<number> => Number(await rpc(anvil.url, 'eth_blockNumber', []));
  const stored = async (): Promise<number> => (await reader.getHighestBlockNumber()) ?? -1;
  await until('caught up', async () => (await stored()) >= (await nodeHead()) - 1, 60_000);

  process.kill(anvil.pid, 'SIGSTOP');
  const pausedAt = Date.now();
  await sleep(PAUSE_MS);
  t.equal(index.exitCode(), null, `index --follow is still running after ${PAUSE_MS / 1000} s of a paused node`);
  process.kill(anvil.pid, 'SIGCONT');
  const resumedAt = Date.now();
  const headAtResume = await nodeHead();
  const back = await until('the indexer stores the blocks mined after SIGCONT', async () => (await stored()) >= headAtResume, 60_000);
  t.comment(`node paused ${resumedAt - pausedAt} ms; time to resume after SIGCONT: ${back - resumedAt} ms (to store block ${headAtResume})`);
  const said = index.lines.filter((l) => l.at >= pausedAt && /the node (is not answering|answers again)|still waiting for the node/.test(l.text)).map((l) => l.text);
  t.comment(`its outage lines: ${JSON.stringify(said)}`);

  await rpc(anvil.url, 'evm_setIntervalMining', [0]);
  const head = await nodeHead();
  await until('the indexer at the final head', async () => (await stored()) === head, 30_000);
  t.equal(await index.stop(), 0, 'index --follow stops cleanly on SIGTERM');

  const clean = await openSqlStore(`sqlite:${join(dir, 'clean.sqlite')}`);
  t.teardown(() => clean.close());
  const cleanSink = recordingSink(clean);
  await createIndexer({ source: createRpcChainSource(anvil.url), sink: cleanSink }).run({ to: head });
  const keys = chainKeys(cleanSink.bundles);
  const a = await digest(clean, keys, { limit: 10, light: true });
  t.same(await digest(reader, keys, { limit: 10, light: true }), a, `all ${a.length} digest entries (every lookup and list) equal a clean run's`);
});
