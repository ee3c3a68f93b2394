/**
 * A Postgres restart under `scoutkit index --follow` and `scoutkit serve` (both child
 * processes), on a Postgres server of the test's own (test/support/postgres.ts): while it is
 * down, serve answers 503 (JSON, Retry-After) and the indexer waits; once it is back both resume
 * by themselves, and the store equals a clean run's, list by list, with the blocks mined and the
 * transactions sent during the outage in it. Times to resume are printed (not asserted).
 */
import t from 'tap';
import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { createIndexer } from '../../lib/indexer/index.ts';
import { createRpcChainSource } from '../../adapters/rpc/index.ts';
import { openSqlStore } from '../../adapters/sql/index.ts';
import { startAnvil } from '../../demo/anvil.ts';
import { runScenario } from '../../demo/scenario.ts';
import { startPostgres } from '../support/postgres.ts';
import { startCli, startServe, until } from '../support/children.ts';
import { chainKeys, digest } from '../adapters/sql/digest.ts';
import { recordingSink, rpc, sendMined } from './helpers.ts';

const t0 = Date.now();
const mark = (what: string): void => void t.comment(`${what}: ${Date.now() - t0} ms`);
const server = await startPostgres();
if (server === null) {
  t.pass('skipped: no Postgres binaries (said above)');
} else {
  t.teardown(() => server.close());
  const anvil = await startAnvil();
  t.teardown(() => anvil.stop());
  mark('postgres up');
  await runScenario(anvil.url);
  mark('scenario');
  await rpc(anvil.url, 'evm_setIntervalMining', [1]);
  const dbUrl = server.url();

  /** the stored head, read on a connection of its own (null while the server is down) */
  const storedHead = async (): Promise<number | null> => {
    const client = new pg.Client({ connectionString: dbUrl });
    client.on('error', () => {});
    try {
      await client.connect();
      const { rows } = await client.query<{ n: string | null }>('select max(number) as n from blocks');
      return rows[0]?.n === null || rows[0] === undefined ? null : Number(rows[0].n);
    } catch {
      return null;
    } finally {
      await client.end().catch(() => {});
    }
  };
  const nodeHead = async (): Promise<number> => Number(await rpc(anvil.url, 'eth_blockNumber', []));

  t.test('a Postgres restart: index --follow and serve resume by themselves, nothing lost', async (t) => {
    // the store migrated here first: the two children start side by side (on a busy machine each takes seconds)
    await (await openSqlStore(dbUrl)).close();
    const index = startCli(['index', '--rpc', anvil.url, '--db', dbUrl, '--follow', '--batch', '5']);
    t.teardown(() => index.stop());
    const serving = startServe(['--db', dbUrl]);
    await index.waitFor(/indexing chain 31337/, 60_000);
    const caughtUp = async (): Promise<boolean> => ((await storedHead()) ?? -1) >= (await nodeHead()) - 1;
    await until('caught up', caughtUp, 60_000);
    mark('caught up');
    const { child: serve, url } = await serving;
    t.teardown(() => serve.stop());
    const get = async (): Promise<{ status: number; json: unknown; retryAfter: string | null; type: string | null }> => {
      const res = await fetch(`${url}/api/v2/blocks`);
      const text = await res.text();
      return { status: res.status, json: JSON.parse(text) as unknown, retryAfter: res.headers.get('retry-after'), type: res.headers.get('content-type') };
    };
    t.equal((await get()).status, 200, 'serve answers');
    mark('serving');

    const beforeStop = Date.now();
    await server.stop();
    const stoppedAt = Date.now();
    t.comment(`Postgres stopped (pg_ctl stop -m fast: ${stoppedAt - beforeStop} ms)`);
    // transactions and blocks while the database is down
    const sent = [await sendMined(anvil.url, 11n), await sendMined(anvil.url, 12n)];
    const down: { status: number; json: unknown; retryAfter: string | null; type: string | null }[] = [];
    while (Date.now() - stoppedAt < 5000) {
      down.push(await get());
      await sleep(300);
    }
    t.ok(down.length > 0 && down.every((r) => r.status === 503), `serve answers 503 while the database is down (${down.length} requests)`);
    t.match(down[0], { json: { message: String }, retryAfter: /^\d+$/, type: /application\/json/ }, '503 as JSON, with Retry-After');
    // (said as the server goes down: maybe before pg_ctl returns)
    await index.waitFor(/the store is not answering: .*/, 10_000, beforeStop);
    t.equal(index.exitCode(), null, 'the indexer waits (still running)');
    t.equal(serve.exitCode(), null, 'serve is still running');

    const headAtRestart = await nodeHead();
    await server.start();
    const startedAt = Date.now();
    t.comment(`Postgres down for ${startedAt - stoppedAt} ms; node head ${headAtRestart} at restart`);
    const resumed = await index.waitFor(/the store answers again: resumed after/, 30_000, beforeStop);
    const [indexBack, serveBack] = await Promise.all([
      until('the indexer stored the blocks mined during the outage', async () => ((await storedHead()) ?? -1) >= headAtRestart, 30_000),
      until('serve answers 200 again', async () => (await get()).status === 200, 30_000),
    ]);
    t.comment(
      `time to resume after the restart: indexer ${indexBack - startedAt} ms (its line: "${resumed.text}"), serve ${serveBack - startedAt} ms`,
    );
    const lines = index.lines.filter((l) => /the store is not answering|still waiting for the store|the store answers again/.test(l.text));
    t.ok(lines.length >= 2 && lines.length <= 4, `the outage said in a few lines, not per attempt (${lines.length})`);
    t.equal(index.lines.filter((l) => /took the store's lease/.test(l.text)).length, 2, 'the lease, lost with its connection, is taken again');

    // the chain stops; the store catches up; a clean run on another database
    await rpc(anvil.url, 'evm_setIntervalMining', [0]);
    const head = await nodeHead();
    await until('the indexer at the final head', async () => (await storedHead()) === head, 30_000);
    t.equal(await index.stop(), 0, 'index --follow stops cleanly on SIGTERM');
    mark('resumed and stopped');
    t.equal(serve.exitCode(), null, 'serve never crashed');

    const admin = new pg.Client({ connectionString: dbUrl });
    await admin.connect();
    await admin.query('create database clean');
    await admin.end();
    const clean = await openSqlStore(server.url('clean'));
    const restarted = await openSqlStore(dbUrl);
    t.teardown(async () => {
      await clean.close();
      await restarted.close();
    });
    const cleanSink = recordingSink(clean);
    await createIndexer({ source: createRpcChainSource(anvil.url), sink: cleanSink }).run({ to: head });
    mark('clean run');
    const keys = chainKeys(cleanSink.bundles);
    for (const hash of sent) t.ok(cleanSink.bundles.some((b) => b.transactions.some((tx) => tx.hash === hash)), 'a transaction sent during the outage is on the chain');
    const a = await digest(clean, keys, { limit: 10, light: true });
    const b = await digest(restarted, keys, { limit: 10, light: true });
    t.equal(b.length, a.length, 'as many digest entries');
    t.same(b, a, `all ${a.length} digest entries (every lookup and list) equal a clean run's`);
  });
}
