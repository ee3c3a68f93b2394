/**
 * One writer, one standby (the kill test, extended to two indexers): two `scoutkit index
 * --follow` processes on one store, SQLite and Postgres. Only the first writes (it holds the
 * lease; the second says it stands by, naming it); a third without --standby exits non-zero
 * naming the holder. The writer is SIGKILLed while it writes a long catch-up, repeatedly: each
 * time the standby takes over from the stored head (the time to take over is reported). At the
 * end the store equals a clean run's, digest entry by entry: nothing lost, nothing twice, no
 * half-written batch.
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import knexFactory from 'knex';
import { startAnvil } from '../../demo/anvil.ts';
import { runScenario } from '../../demo/scenario.ts';
import { openSqlStore } from '../../adapters/sql/index.ts';
import { chainKeys, digest } from '../adapters/sql/digest.ts';
import { databaseUrl, postgresUnreachable, selectedStoreNames } from '../support/stores.ts';
import { scoutkitBin } from '../support/scoutkitBin.ts';
import { indexerFor, recordingSink, rpc, toHex } from './helpers.ts';

interface Indexer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly pid: number;
  /** stderr so far */
  err(): string;
  exited: Promise<number | null>;
}

function startIndexer(rpcUrl: string, db: string, extra: readonly string[] = []): Indexer {
  const child = spawn(process.execPath, [...scoutkitBin(), 'index', '--rpc', rpcUrl, '--db', db, '--batch', '5', '--concurrency', '2', ...extra], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => void (err += d.toString()));
  child.stdout.resume();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, pid: child.pid ?? -1, err: () => err, exited };
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const big = (_: string, v: unknown): unknown => (typeof v === 'bigint' ? `${v}n` : v);

t.test('two indexers on one store: one writes, the other stands by and takes over when it is killed', async (t) => {
  const anvil = await startAnvil();
  const dir = mkdtempSync(join(tmpdir(), 'scoutkit-lease-'));
  t.teardown(async () => {
    await anvil.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  await runScenario(anvil.url, { rounds: 1 });

  const stores: { name: string; url: string; cleanup?: () => Promise<void> }[] = [];
  const names = selectedStoreNames();
  if (names.includes('sqlite')) stores.push({ name: 'sqlite', url: `sqlite:${join(dir, 'chain.sqlite')}` });
  if (names.includes('postgres')) {
    const why = await postgresUnreachable();
    if (why !== null) t.comment(`postgres skipped: ${why}`);
    else {
      const admin = knexFactory({ client: 'pg', connection: databaseUrl(), pool: { min: 0, max: 1 } });
      const name = `scoutkit_lease_${process.pid}`;
      await admin.raw(`DROP DATABASE IF EXISTS ${name}`);
      await admin.raw(`CREATE DATABASE ${name}`);
      const url = new URL(databaseUrl());
      url.pathname = `/${name}`;
      stores.push({
        name: 'postgres',
        url: url.toString(),
        cleanup: async () => {
          await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await admin.destroy();
        },
      });
    }
  }

  for (const store of stores) {
    await t.test(store.name, async (t) => {
      if (store.cleanup !== undefined) t.teardown(store.cleanup);
      const children: Indexer[] = [];
      t.teardown(() => children.forEach((c) => c.child.kill('SIGKILL')));
      const start = (extra: readonly string[]): Indexer => {
        const c = startIndexer(anvil.url, store.url, extra);
        children.push(c);
        return c;
      };
      const storeHead = async (): Promise<number> => {
        const s = await openSqlStore(store.url, { migrate: false, sqliteReaders: 0, poolSize: 1 });
        try {
          return (await s.getIndexedHead())?.number ?? -1;
        } catch {
          return -1;
        } finally {
          await s.close();
        }
      };
      const nodeHead = async (): Promise<number> => Number(await rpc(anvil.url, 'eth_blockNumber', []));

      let writer = start(['--follow']);
      await until('the first indexer to take the lease', () => /lease: acquired/.test(writer.err()));
      let standby = start(['--follow', '--standby']);
      await until('the second to stand by', () => /lease: standing by/.test(standby.err()));
      t.match(standby.err(), new RegExp(`held by pid ${writer.pid} on `), 'the standby names the holder');
      t.notMatch(standby.err(), /lease: acquired/, 'only one holds the lease');

      const third = start([]);
      const code = await third.exited;
      t.not(code, 0, 'a second indexer without --standby exits non-zero');
      t.match(third.err(), new RegExp(`another indexer holds this store's lease: pid ${writer.pid} on .* since \\d{4}-`), 'naming the holder (pid, host, since when)');

      const takeovers: number[] = [];
      for (let round = 0; round < 2; round++) {
        // a long catch-up, so the writer is killed while writing
        await rpc(anvil.url, 'anvil_mine', [toHex(60)]);
        const target = await nodeHead();
        await until('the writer to be busy', async () => (await storeHead()) > target - 50);
        writer.child.kill('SIGKILL');
        const killedAt = Date.now();
        await writer.exited;
        await until('the standby to take over', () => /lease: acquired/.test(standby.err()), 30_000);
        takeovers.push(Date.now() - killedAt);
        t.match(standby.err(), /lease: acquired/, `round ${round + 1}: the standby took over`);
        writer = standby;
        standby = start(['--follow', '--standby']);
        await until('a new standby', () => /lease: standing by/.test(standby.err()));
      }
      t.comment(`${store.name}: time to take over after SIGKILL: ${takeovers.map((ms) => `${ms} ms`).join(', ')}`);

      const head = await nodeHead();
      await until('the writer to catch up', async () => (await storeHead()) === head);
      writer.child.kill('SIGTERM');
      t.equal(await writer.exited, 0, 'the writer stops cleanly');
      standby.child.kill('SIGTERM');
      await standby.exited;

      // a clean run to the same head, into a store of the same kind
      const memory = await openSqlStore(`sqlite:${join(dir, `clean-${store.name}.sqlite`)}`);
      t.teardown(() => memory.close());
      const clean = recordingSink(memory);
      await indexerFor(anvil.url, clean).run({ to: head });
      const stored = await openSqlStore(store.url);
      t.teardown(() => stored.close());
      t.same(await stored.getIndexedHead(), await clean.getIndexedHead(), 'the same head');
      const keys = chainKeys(clean.bundles);
      const a = await digest(memory, keys, { limit: 10, light: true });
      const b = await digest(stored, keys, { limit: 10, light: true });
      t.equal(b.length, a.length);
      const differing = a.filter((x, i) => JSON.stringify(b[i], big) !== JSON.stringify(x, big));
      for (const x of differing.slice(0, 5)) t.same(b[a.indexOf(x)], x, x.label);
      if (differing.length > 0) t.comment(differing.map((x) => x.label).join('\n'));
      t.equal(differing.length, 0, `all ${a.length} digest entries equal a clean run's`);
    });
  }
});
