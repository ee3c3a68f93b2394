/**
 * Outages, in-process and quick: the sql adapter tells an unreachable store (retry) from a bug
 * (fatal); a store outage is waited out, said once a minute, emitted, and a write that failed —
 * before or after its commit — is made again whole, with nothing lost or doubled; without
 * `follow` a node or a store that never comes back ends the run after the retry budget with a
 * clear message. (A real Postgres restart and a paused anvil: outage-postgres / outage-node.)
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import knexFactory from 'knex';
import { createIndexer, OutageError } from '../../lib/indexer/index.ts';
import type { IndexerEvent } from '../../lib/indexer/index.ts';
import type { LeaseAttempt, LeaseHolder, StoreLease } from '../../lib/indexer/lease.ts';
import { createOutage } from '../../lib/indexer/outage.ts';
import { hash } from '../../lib/domain/hex.ts';
import { StoreUnavailableError } from '../../lib/sink/unavailable.ts';
import type { DataSink } from '../../lib/ports.ts';
import { createRpcChainSource } from '../../adapters/rpc/index.ts';
import { openSqlStore } from '../../adapters/sql/index.ts';
import { isStoreUnreachable } from '../../adapters/sql/unavailable.ts';
import { parseIndexArgs, runIndexCommand } from '../../host/commands/index.ts';
import { startAnvil } from '../../demo/anvil.ts';
import type { Anvil } from '../../demo/anvil.ts';
import { runScenario } from '../../demo/scenario.ts';
import { chainKeys, digest } from '../adapters/sql/digest.ts';
import { recordingSink } from './helpers.ts';

const coded = (code: string, message = 'x'): Error => Object.assign(new Error(message), { code });

t.test('the sql adapter: unreachable (retry) or a bug (fatal)', async (t) => {
  for (const e of [
    coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
    coded('ECONNRESET', 'read ECONNRESET'),
    coded('57P01', 'terminating connection due to administrator command'),
    coded('57P03', 'the database system is starting up'),
    coded('08006'),
    coded('08003'),
    coded('SQLITE_BUSY', 'SQLITE_BUSY: database is locked'),
    new Error('Connection terminated unexpectedly'),
    Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), { name: 'KnexTimeoutError' }),
    new Error('insert into "blocks" ... - wrapped', { cause: coded('ECONNRESET') }),
    Object.assign(new AggregateError([coded('ECONNREFUSED')], 'connect failed')),
  ]) {
    t.ok(isStoreUnreachable(e), `unreachable: ${(e as { code?: string }).code ?? e.message}`);
  }
  for (const e of [
    coded('23505', 'duplicate key value violates unique constraint "blocks_pkey"'),
    coded('42P01', 'relation "blockz" does not exist'),
    coded('42703', 'column "x" does not exist'),
    coded('SQLITE_CONSTRAINT', 'SQLITE_CONSTRAINT: UNIQUE constraint failed: blocks.number'),
    coded('SQLITE_ERROR', 'SQLITE_ERROR: no such table: blockz'),
    new TypeError('Cannot read properties of undefined'),
  ]) {
    t.notOk(isStoreUnreachable(e), `a bug: ${e.message}`);
  }
});

t.test('a locked SQLite file past its busy timeout is StoreUnavailableError; a constraint error is not', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'scoutkit-outage-'));
  const file = join(dir, 'busy.sqlite');
  const store = await openSqlStore(`sqlite:${file}`);
  const other = knexFactory({ client: 'sqlite3', connection: { filename: file }, useNullAsDefault: true, pool: { min: 1, max: 1 } });
  t.teardown(async () => {
    await other.destroy();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await store.knex.raw('PRAGMA busy_timeout = 100');
  const conn = await other.client.acquireConnection();
  await other.raw('BEGIN EXCLUSIVE').connection(conn);
  const err = await store.setChainIdentity({ chainId: 1, genesisHash: hash(`0x${'11'.repeat(32)}`) }).then(
    () => null,
    (e: unknown) => e,
  );
  t.type(err, StoreUnavailableError, 'SQLITE_BUSY: unavailable');
  t.match((err as Error).message, /the store is unreachable: .*SQLITE_BUSY/);
  await other.raw('ROLLBACK').connection(conn);
  await other.client.releaseConnection(conn);
  await store.setChainIdentity({ chainId: 1, genesisHash: hash(`0x${'11'.repeat(32)}`) });
  const bug = await store.knex.raw('insert into chain_identity (id, chain_id, genesis_hash) values (1, 1, ?)', ['0x']).then(
    () => null,
    (e: unknown) => e,
  );
  t.ok(bug !== null && !(bug instanceof StoreUnavailableError) && !isStoreUnreachable(bug), 'a constraint violation is a bug, not an outage');
});

t.test('an outage is said at once, then once a minute, then resumed', async (t) => {
  let clock = 0;
  const lines: string[] = [];
  const events: IndexerEvent[] = [];
  const o = createOutage('store', { budgetMs: Infinity, maxDelayMs: 5000 }, { log: (l) => lines.push(l), emit: (e) => events.push(e), now: () => clock });
  o.resumed();
  t.same(lines, [], 'no outage, nothing said');
  for (clock = 0; clock <= 150_000; clock += 5000) o.waiting('writing 25 block(s): connect ECONNREFUSED');
  o.resumed();
  t.equal(lines.length, 4, 'first line, two minute summaries, resumed');
  t.match(lines[0], /^the store is not answering: writing 25 block\(s\): connect ECONNREFUSED — waiting for as long as it takes/);
  t.match(lines[1], /^still waiting for the store after 60s \(13 failed attempt\(s\) in the last 60s\)/);
  t.match(lines[3], /^the store answers again: resumed after 155s \(31 failed attempt\(s\)\)$/);
  t.equal(events.filter((e) => e.type === 'waiting').length, 31, 'every failed attempt is an event');
  t.same(events[0], { type: 'waiting', on: 'store', attempt: 1, sinceMs: 0, message: 'writing 25 block(s): connect ECONNREFUSED' });
  t.same(events.at(-1), { type: 'resumed', on: 'store', afterMs: 155_000 });

  const bounded = createOutage('node', { budgetMs: 10_000, maxDelayMs: 5000 }, { log: () => {}, emit: () => {}, now: () => clock });
  clock = 0;
  bounded.waiting('fetch failed');
  clock = 10_001;
  t.throws(() => bounded.waiting('fetch failed'), new OutageError('node', 10_001, 10_000, 'fetch failed'));
  t.throws(() => bounded.waiting('fetch failed'), OutageError, 'every step still waiting gives up too');
});

let anvil: Anvil;
t.before(async () => {
  anvil = await startAnvil();
  await runScenario(anvil.url, { rounds: 1 });
});
t.teardown(() => anvil?.stop());

/** the sink failing like a dropped connection: every third write before it runs, every third after its commit */
function flaky(inner: DataSink): DataSink & { failures: number } {
  let calls = 0;
  const sink = {
    ...inner,
    failures: 0,
    async writeBlocks(bundles: Parameters<DataSink['writeBlocks']>[0]) {
      calls++;
      if (calls % 3 === 1) {
        sink.failures++;
        throw new StoreUnavailableError('the store is unreachable: Connection terminated unexpectedly');
      }
      await inner.writeBlocks(bundles);
      if (calls % 3 === 2) {
        sink.failures++;
        throw new StoreUnavailableError('the store is unreachable: read ECONNRESET (the commit answer lost)');
      }
    },
  };
  return sink;
}

t.test('writes failing on connection errors, before and after their commit, are made again whole', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'scoutkit-outage-'));
  const clean = await openSqlStore(`sqlite:${join(dir, 'clean.sqlite')}`);
  const faulted = await openSqlStore(`sqlite:${join(dir, 'faulted.sqlite')}`);
  t.teardown(async () => {
    await clean.close();
    await faulted.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const source = createRpcChainSource(anvil.url);
  const cleanSink = recordingSink(clean);
  await createIndexer({ source, sink: cleanSink, batchSize: 5 }).run();
  const sink = flaky(faulted);
  const events: IndexerEvent[] = [];
  const lines: string[] = [];
  const summary = await createIndexer({ source, sink, batchSize: 5, hold: { baseDelayMs: 5, maxDelayMs: 20 }, onEvent: (e) => events.push(e), log: (l) => lines.push(l) }).run();
  t.ok(sink.failures > 3, `${sink.failures} writes failed`);
  t.equal(summary.indexedHead, (await clean.getIndexedHead())?.number, 'indexed to the head');
  t.equal(events.filter((e) => e.type === 'waiting' && e.on === 'store').length, sink.failures, 'each failure a waiting event');
  t.ok(events.some((e) => e.type === 'resumed' && e.on === 'store'), 'and resumed');
  t.ok(lines.some((l) => /^the store answers again: resumed after/.test(l)), 'resumed is said');
  const keys = chainKeys(cleanSink.bundles);
  t.same(await digest(faulted, keys, { limit: 10, light: true }), await digest(clean, keys, { limit: 10, light: true }), 'the store equals a clean run, list by list');
});

t.test('without follow, a store that never comes back ends the run after the budget', async (t) => {
  const memory = await openSqlStore('sqlite::memory:');
  t.teardown(() => memory.close());
  const down: DataSink = { ...memory, writeBlocks: () => Promise.reject(new StoreUnavailableError('the store is unreachable: connect ECONNREFUSED 127.0.0.1:5432 (ECONNREFUSED)')) };
  const run = createIndexer({ source: createRpcChainSource(anvil.url), sink: down, retryForMs: 300, hold: { baseDelayMs: 20, maxDelayMs: 50 } }).run();
  await t.rejects(run, { name: 'OutageError', on: 'store', message: /^gave up waiting for the store after 0\.\ds \(retry budget 0\.3s\): writing \d+ block\(s\): the store is unreachable: connect ECONNREFUSED/ });
});

t.test('without --follow, a node that never comes back ends `scoutkit index` after --retry-for, clearly', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'scoutkit-outage-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const gone = await startAnvil();
  const url = gone.url;
  await gone.stop();
  const out: string[] = [];
  const io = { stdout: { write: (s: string) => void out.push(s), isTTY: false }, stderr: { write: (s: string) => void out.push(s) } };
  const started = Date.now();
  await t.rejects(runIndexCommand(['--rpc', url, '--db', `sqlite:${join(dir, 'c.sqlite')}`, '--retry-for', '1'], io), {
    message: /^gave up waiting for the node after \d+\.\ds \(retry budget 1\.0s\): start-up: .* — raise --retry-for, or run with --follow to wait as long as it takes$/,
  });
  t.comment(`gave up after ${Date.now() - started} ms`);
  t.match(out.join(''), /the node is not answering: start-up: .* — waiting for at most 1\.0s/, 'the wait was said');
  t.throws(() => parseIndexArgs(['--rpc', url, '--db', 'memory:', '--retry-for', 'soon']), /--retry-for/);
});

/** a lease scripted attempt by attempt (the last step repeats); `lose()` loses the lease held now */
function scriptedLease(script: readonly ('take' | 'down' | 'own' | 'other')[]): StoreLease & { lose: () => void; attempts: number } {
  const me: LeaseHolder = { host: 'here', pid: 7, since: '2026-11-27T00:00:00.000Z' };
  let current: AbortController | null = null;
  const lease = {
    attempts: 0,
    lose: () => current?.abort(),
    tryAcquire(): Promise<LeaseAttempt> {
      const step = script[Math.min(lease.attempts++, script.length - 1)];
      if (step === 'down') return Promise.reject(new StoreUnavailableError('the store is unreachable: connect ECONNREFUSED 127.0.0.1:5432 (ECONNREFUSED)'));
      if (step === 'own') return Promise.resolve({ acquired: false, holder: me });
      if (step === 'other') return Promise.resolve({ acquired: false, holder: { host: 'there', pid: 9, since: me.since } });
      current = new AbortController();
      return Promise.resolve({ acquired: true, lease: { holder: me, lost: current.signal, release: () => Promise.resolve() } });
    },
  };
  return lease;
}

t.test('a lease lost under follow is an outage: nothing written until it is taken again, then on from the stored head', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'scoutkit-outage-'));
  const clean = await openSqlStore(`sqlite:${join(dir, 'clean.sqlite')}`);
  t.teardown(async () => {
    await clean.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const source = createRpcChainSource(anvil.url);
  const cleanSink = recordingSink(clean);
  const head = (await createIndexer({ source, sink: cleanSink, batchSize: 5 }).run()).indexedHead ?? 0;
  const keys = chainKeys(cleanSink.bundles);
  const hold = { baseDelayMs: 5, maxDelayMs: 20 };

  /** a store whose lease is lost after its second write; its writes and resets counted */
  const leasedStore = async (lease: ReturnType<typeof scriptedLease>) => {
    const store = await openSqlStore('sqlite::memory:');
    t.teardown(() => store.close());
    const counts = { writes: 0, emptied: 0 };
    const sink: DataSink = {
      ...store,
      async rollbackAbove(height) {
        if (height < 0) counts.emptied++;
        await store.rollbackAbove(height);
      },
      async writeBlocks(bundles) {
        await store.writeBlocks(bundles);
        if (++counts.writes === 2) lease.lose();
      },
    };
    return { store, sink, counts };
  };

  const lease = scriptedLease(['take', 'down', 'down', 'own', 'take']);
  const { store, sink, counts } = await leasedStore(lease);
  const events: IndexerEvent[] = [];
  const lines: string[] = [];
  const summary = await createIndexer({ source, sink, lease, batchSize: 5, hold, onEvent: (e) => events.push(e), log: (l) => lines.push(l) }).run({
    follow: true,
    to: head,
    reset: true,
    standbyIntervalMs: 10,
  });
  t.equal(summary.indexedHead, head, 'indexed to the head after taking the lease again');
  t.equal(lease.attempts, 5, 'asked for the lease until it was taken');
  t.same(
    events.filter((e) => e.type === 'lease' || ((e.type === 'waiting' || e.type === 'resumed') && e.on === 'store')).map((e) => `${e.type}${'state' in e ? ` ${e.state}` : ''}`),
    ['lease acquired', 'lease lost', 'waiting', 'waiting', 'resumed', 'lease acquired'],
    'acquired, lost, the store waited out, acquired again',
  );
  t.ok(lines.some((l) => /^lost the store's lease: writing nothing more, taking it again once the store answers$/.test(l)), 'the loss is said');
  t.ok(lines.some((l) => /^the store is not answering: taking the store's lease: the store is unreachable: connect ECONNREFUSED/.test(l)), 'the outage is said');
  t.ok(lines.some((l) => /^the store still holds this process's lost lease \(pid 7 on here/.test(l)), "this process's own dead session is waited out, not taken for another indexer");
  t.ok(counts.writes > 2, 'written again after taking the lease');
  t.equal(counts.emptied, 1, '--reset empties the store once, not again after the lease is taken again');
  t.same(await digest(store, keys, { limit: 10, light: true }), await digest(clean, keys, { limit: 10, light: true }), 'the store equals a clean run');

  const once = scriptedLease(['take']);
  const single = await leasedStore(once);
  await t.rejects(createIndexer({ source, sink: single.sink, lease: once, batchSize: 5, hold }).run(), { name: 'LeaseLostError' }, 'without follow, a lost lease ends the run');
  t.equal(single.counts.writes, 2, 'and nothing is written after it is lost');

  const taken = scriptedLease(['take', 'down', 'other']);
  const other = await leasedStore(taken);
  await t.rejects(
    createIndexer({ source, sink: other.sink, lease: taken, batchSize: 5, hold }).run({ follow: true, to: head, standbyIntervalMs: 10 }),
    { name: 'LeaseHeldError', message: /pid 9 on there/ },
    'with follow, a lease another indexer took meanwhile ends the run, naming it',
  );
  const standing = scriptedLease(['take', 'other', 'other', 'take']);
  const stood = await leasedStore(standing);
  const stoodEvents: IndexerEvent[] = [];
  const stoodSummary = await createIndexer({ source, sink: stood.sink, lease: standing, batchSize: 5, hold, onEvent: (e) => stoodEvents.push(e) }).run({
    follow: true,
    to: head,
    standby: true,
    standbyIntervalMs: 10,
  });
  t.equal(stoodSummary.indexedHead, head, '--standby: stands by after the loss, then takes over');
  t.ok(stoodEvents.some((e) => e.type === 'lease' && e.state === 'standby'), 'standby said');
});
