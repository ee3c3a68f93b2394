/**
 * API hosts on a real Postgres streaming replica (test/support/postgres.ts: a primary of the
 * test's own and a hot standby made by pg_basebackup -R). An indexer follows anvil into the
 * primary; host A reads the standby allowing 60 s of lag, host B reads it allowing 1 s, host P
 * reads the primary only. Proven here:
 *
 * - once the standby has caught up, A's and B's answers equal P's;
 * - the standby's replay paused: B leaves it once it is more than 1 s behind, A keeps it (and
 *   answers the standby's older head); a paged walk alternating A and B while the indexer writes
 *   sees every block below its first page's top exactly once, in order, whichever host starts;
 *   replay resumed, B takes the standby back;
 * - the standby stopped and started while both hosts are asked all along: every answer is a 200
 *   (from the primary while the standby is away), and both take it back once it is up.
 *
 * Figures (lag seen, times to leave and take back, rows walked) are printed, not asserted.
 */
import t from 'tap';
import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { openSqlStore } from '../../../adapters/sql/index.ts';
import { openStore } from '../../../host/stores.ts';
import { createServer } from '../../../host/server.ts';
import { LOCAL_PLAN } from '../../../host/plans.ts';
import type { ReplicaState } from '../../../lib/index.ts';
import { startAnvil } from '../../../demo/anvil.ts';
import { startPostgres } from '../../support/postgres.ts';
import { startServe, until } from '../../support/children.ts';
import { DEV_ACCOUNT0, indexerFor, rpc, sendMined } from '../../indexer/helpers.ts';

const t0 = Date.now();
const mark = (what: string): void => void t.comment(`${what}: ${Date.now() - t0} ms`);
const CHAIN = '31337';

/** one value of one row, on a connection of its own (null when the server does not answer) */
async function one(url: string, sql: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<Record<string, unknown>>(sql);
    const value = rows[0] === undefined ? undefined : Object.values(rows[0])[0];
    return value === undefined || value === null ? null : String(value);
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

interface Reply {
  readonly status: number;
  readonly body: unknown;
}

interface Host {
  readonly name: string;
  get(path: string): Promise<Reply>;
  /** the chain's read replica as /ready says (undefined for a host without replicas) */
  replica(): Promise<ReplicaState | undefined>;
  /** the metrics' lines about replicas */
  replicaMetrics(): Promise<string[]>;
  readonly storeErrors: number[];
  close(): Promise<void>;
}

interface BlocksPage {
  readonly items: readonly { readonly height: number }[];
  readonly next_page_params: Readonly<Record<string, string | number>> | null;
}

const server = await startPostgres();
if (server === null) {
  t.pass('skipped: no Postgres binaries (said above)');
} else {
  // undone last first, once every test is through
  const cleanups: (() => Promise<unknown>)[] = [];
  t.teardown(async () => {
    for (const undo of cleanups.reverse()) await undo().catch((e: unknown) => t.comment(`cleanup: ${String(e)}`));
  });
  cleanups.push(() => server.close());
  const primaryUrl = server.url();
  // the schema first, then the standby's copy of it
  const writer = await openSqlStore(primaryUrl);
  const standby = await server.standby();
  cleanups.push(() => standby.close());
  const standbyUrl = standby.url();
  mark('primary and streaming standby up');
  const anvil = await startAnvil();
  cleanups.push(() => anvil.stop());
  await rpc(anvil.url, 'anvil_mine', ['0x19']);
  for (let i = 1n; i <= 4n; i++) await sendMined(anvil.url, i);
  const indexing = new AbortController();
  const indexed = indexerFor(anvil.url, writer, { batchSize: 10 }).run({ follow: true, signal: indexing.signal });
  cleanups.push(async () => {
    indexing.abort();
    await indexed.catch(() => undefined);
    await writer.close();
  });

  const version = (url: string): Promise<string | null> => one(url, 'select version from data_version where id = 1');
  const primaryHead = async (): Promise<number> => Number((await one(primaryUrl, 'select max(number) from blocks')) ?? -1);
  const nodeHead = async (): Promise<number> => Number(await rpc(anvil.url, 'eth_blockNumber', []));
  const caughtUp = async (): Promise<boolean> => {
    if ((await primaryHead()) < (await nodeHead())) return false;
    const [p, s] = await Promise.all([version(primaryUrl), version(standbyUrl)]);
    return p !== null && p === s;
  };

  const startHost = async (name: string, maxLagSeconds?: number): Promise<Host> => {
    const store = await openStore(primaryUrl, maxLagSeconds === undefined ? {} : { readUrls: [standbyUrl], maxReplicaLagSeconds: maxLagSeconds, replicaProbeMs: 200 });
    const storeErrors: number[] = [];
    const app = createServer({
      chains: { [CHAIN]: { store: store.source, contracts: store.contracts, ...(store.feed === undefined ? {} : { feed: store.feed }) } },
      log: false,
      docs: false,
      metrics: { processMetrics: false },
      anonymousPlan: LOCAL_PLAN,
      onStoreError: () => void storeErrors.push(Date.now()),
      onClose: () => store.close(),
    });
    const { url } = await app.listen(0);
    return {
      name,
      storeErrors,
      async get(path) {
        const res = await fetch(`${url}${path}`);
        return { status: res.status, body: (await res.json()) as unknown };
      },
      async replica() {
        const body = (await (await fetch(`${url}/ready`)).json()) as { chains: Record<string, { replicas?: ReplicaState[] }> };
        return body.chains[CHAIN]?.replicas?.[0];
      },
      async replicaMetrics() {
        return (await (await fetch(`${url}/metrics`)).text()).split('\n').filter((l) => l.startsWith('scoutkit_replica_'));
      },
      close: () => app.close(),
    };
  };
  const [hostA, hostB, hostP] = await Promise.all([startHost('A', 60), startHost('B', 1), startHost('P')]);
  cleanups.push(() => Promise.all([hostA, hostB, hostP].map((h) => h.close())));
  const replicaIs = (host: Host, wanted: (r: ReplicaState) => boolean) => async (): Promise<boolean> => {
    const r = await host.replica();
    return r !== undefined && wanted(r);
  };
  const topOf = async (host: Host): Promise<number> => ((await host.get('/api/v2/blocks')).body as BlocksPage).items[0]?.height ?? -1;
  mark('indexer following, hosts A, B, P listening');

  t.test('caught up: the hosts on the standby answer what the primary answers', async (t) => {
    await until('the standby has every write of the primary', caughtUp, 30_000);
    await until('both hosts read the standby, caught up', async () => (await replicaIs(hostA, (r) => r.inUse && r.lagSeconds === 0)()) && (await replicaIs(hostB, (r) => r.inUse && r.lagSeconds === 0)()), 10_000);
    const head = await primaryHead();
    const tx = ((await hostP.get('/api/v2/transactions')).body as { items: { hash: string }[] }).items[0]?.hash;
    t.ok(tx !== undefined, 'the primary has transactions');
    const paths = ['/api/v2/blocks', `/api/v2/blocks/${head}`, '/api/v2/transactions', `/api/v2/transactions/${tx}`, `/api/v2/addresses/${DEV_ACCOUNT0}/transactions`, '/api/v2/blocks?items_count=7&block_number=12'];
    for (const path of paths) {
      const [a, b, p] = await Promise.all([hostA.get(path), hostB.get(path), hostP.get(path)]);
      t.equal(p.status, 200, `${path}: the primary answers`);
      t.same([a, b], [p, p], `${path}: A and B (on the standby) answer as P (the primary)`);
    }
    const state = await hostA.replica();
    t.match(state, { name: `127.0.0.1:${standby.port}/postgres`, inUse: true, reachable: true, lagSeconds: 0, versionsBehind: 0, highestBlock: head }, '/ready: the replica, caught up');
    const metrics = await hostA.replicaMetrics();
    t.ok(metrics.some((l) => /^scoutkit_replica_in_use\{chain="31337",replica="127\.0\.0\.1:\d+\/postgres"\} 1$/.test(l)), `/metrics: the replica in use (${metrics.length} lines)`);
    t.ok(metrics.some((l) => /^scoutkit_replica_lag_seconds\{.*\} 0$/.test(l)), '/metrics: its lag, 0');
    mark('caught up, answers equal');
  });

  t.test('the standby paused: B leaves it past 1 s of lag, A keeps it; walks across both see every block once', async (t) => {
    await one(standbyUrl, 'select pg_wal_replay_pause()');
    const pausedAt = Date.now();
    t.teardown(() => one(standbyUrl, 'select pg_wal_replay_resume()'));
    // the indexer writes all along: a block every 100 ms, a transaction in every fourth
    let mining = true;
    const miner = (async () => {
      for (let k = 1; mining; k++) {
        if (k % 4 === 0) await sendMined(anvil.url, BigInt(k));
        else await rpc(anvil.url, 'evm_mine', []);
        await sleep(100);
      }
    })();
    const left = await until('B leaves the paused standby', replicaIs(hostB, (r) => !r.inUse && r.reachable), 15_000);
    const seenB = await hostB.replica();
    t.comment(`B left the paused standby ${left - pausedAt} ms after the pause (lag ${seenB?.lagSeconds} s, ${seenB?.versionsBehind} writes behind)`);
    // A probes on its own: it sees the same lag within a probe
    await until('A sees the standby over 1 s behind', replicaIs(hostA, (r) => (r.lagSeconds ?? 0) > 1), 5000);
    const seenA = await hostA.replica();
    t.match(seenA, { inUse: true, reachable: true }, `A (allowing 60 s) keeps it (lag ${seenA?.lagSeconds} s, ${seenA?.versionsBehind} writes behind)`);
    const metrics = await hostB.replicaMetrics();
    t.ok(metrics.some((l) => /^scoutkit_replica_in_use\{.*\} 0$/.test(l)), '/metrics on B: the replica not in use');
    // enough blocks past the standby that a page's cursor from B lies above what it holds
    await until('the primary 8 blocks past the standby', async () => (await primaryHead()) >= (seenA?.highestBlock ?? 0) + 8, 15_000);
    const [topA, topB] = [await topOf(hostA), await topOf(hostB)];
    t.ok(topA < topB, `A answers the standby's head (${topA}), B the primary's (${topB})`);

    const walk = async (order: readonly Host[]): Promise<number[]> => {
      const out: number[] = [];
      let query = 'items_count=4';
      const startHead = await primaryHead();
      for (let i = 0; ; i++) {
        const host = order[i % order.length] as Host;
        const reply = await host.get(`/api/v2/blocks?${query}`);
        if (reply.status !== 200) throw new Error(`${host.name}: ${reply.status} ${JSON.stringify(reply.body)}`);
        const page = reply.body as BlocksPage;
        out.push(...page.items.map((b) => b.height));
        // the walk goes on only once the indexer has written past its first page (a fast walk on a busy machine could miss every write)
        if (i === 0) await until('the indexer writes during the walk', async () => (await primaryHead()) > startHead, 10_000);
        if (page.next_page_params === null) return out;
        query = new URLSearchParams(Object.entries(page.next_page_params).map(([k, v]): [string, string] => [k, String(v)])).toString();
      }
    };
    for (const order of [[hostB, hostA], [hostA, hostB]]) {
      const walked = await walk(order);
      const top = walked[0] ?? -1;
      const expected = Array.from({ length: top + 1 }, (_, i) => top - i);
      t.same(walked, expected, `starting on ${order[0]?.name} (head ${top}), alternating: blocks ${top}..0, each once, in order (${walked.length} rows, ${Math.ceil(walked.length / 4)} pages)`);
    }
    t.ok((await primaryHead()) > topB, 'the indexer wrote during the walks');
    mining = false;
    await miner;

    await one(standbyUrl, 'select pg_wal_replay_resume()');
    const resumedAt = Date.now();
    const back = await until('B takes the standby back', replicaIs(hostB, (r) => r.inUse), 15_000);
    t.comment(`replay resumed: B took the standby back after ${back - resumedAt} ms`);
    t.pass('B reads the standby again');
    mark('pause, walks, resume');
  });

  t.test('the standby stopped and started while serving: answers go on, from the primary meanwhile', async (t) => {
    await until('the standby has every write of the primary', caughtUp, 30_000);
    await until('both hosts on the standby', async () => (await replicaIs(hostA, (r) => r.inUse)()) && (await replicaIs(hostB, (r) => r.inUse)()), 10_000);
    const errorsBefore = hostA.storeErrors.length + hostB.storeErrors.length;
    const replies: { host: string; status: number; ms: number }[] = [];
    let asking = true;
    const asker = (async () => {
      // a page size of its own per round: answers from the cache would not reach the standby
      for (let round = 0; asking; round++) {
        await Promise.all(
          [hostA, hostB].map(async (h) => {
            const started = Date.now();
            const r = await h.get(`/api/v2/blocks?items_count=${1 + (round % 50)}`);
            replies.push({ host: h.name, status: r.status, ms: Date.now() - started });
          }),
        );
        await sleep(50);
      }
    })();
    await sleep(300);
    const stopping = Date.now();
    await standby.stop();
    const stopped = Date.now();
    const [outA, outB] = await Promise.all([
      until('A sees the standby gone', replicaIs(hostA, (r) => !r.reachable), 10_000),
      until('B sees the standby gone', replicaIs(hostB, (r) => !r.reachable), 10_000),
    ]);
    t.comment(`standby stopped (pg_ctl stop -m fast: ${stopped - stopping} ms); left out by A after ${outA - stopping} ms, by B after ${outB - stopping} ms`);
    // a block while it is away: the hosts answer it, so they read the primary
    await sendMined(anvil.url, 99n);
    const head = await nodeHead();
    await until('the block indexed', async () => (await primaryHead()) >= head, 10_000);
    await until('A and B answer it', async () => (await topOf(hostA)) === head && (await topOf(hostB)) === head, 10_000);
    t.pass(`with the standby away, A and B answer the primary's new head (${head})`);

    const starting = Date.now();
    await standby.start();
    const started = Date.now();
    const [backA, backB] = await Promise.all([
      until('A takes the standby back', replicaIs(hostA, (r) => r.inUse), 15_000),
      until('B takes the standby back', replicaIs(hostB, (r) => r.inUse), 15_000),
    ]);
    t.comment(`standby started (pg_ctl start: ${started - starting} ms); taken back by A after ${backA - started} ms, by B after ${backB - started} ms`);
    await sleep(300);
    asking = false;
    await asker;
    const failed = replies.filter((r) => r.status !== 200);
    const slowest = Math.max(...replies.map((r) => r.ms));
    t.equal(failed.length, 0, `every answer while the standby stopped and started was a 200 (${replies.length} requests, slowest ${slowest} ms)`);
    const retried = hostA.storeErrors.length + hostB.storeErrors.length - errorsBefore;
    t.comment(`requests that failed on the standby and were answered by the primary instead: ${retried}`);

    await until('the standby has every write of the primary', caughtUp, 30_000);
    await until('both hosts caught up on it', async () => (await replicaIs(hostA, (r) => r.inUse && r.lagSeconds === 0)()) && (await replicaIs(hostB, (r) => r.inUse && r.lagSeconds === 0)()), 10_000);
    const [a, b, p] = await Promise.all([hostA.get('/api/v2/blocks'), hostB.get('/api/v2/blocks'), hostP.get('/api/v2/blocks')]);
    t.same([a, b], [p, p], 'back on the standby, A and B answer as the primary');
    mark('stop, start');
  });

  t.test('scoutkit serve --read-db --max-replica-lag', async (t) => {
    const { child, url } = await startServe(['--db', primaryUrl, '--read-db', standbyUrl, '--max-replica-lag', '5']);
    t.teardown(() => child.stop());
    const listening = child.lines.find((l) => /"msg":"listening"/.test(l.text))?.text ?? '';
    t.match(listening, `reads from ${standbyUrl}`, 'the listening line names the replica');
    const ready = (await (await fetch(`${url}/ready`)).json()) as { status: string; chains: Record<string, { replicas?: ReplicaState[] }> };
    t.match(ready, { status: 'ready', chains: { [CHAIN]: { replicas: [{ name: `127.0.0.1:${standby.port}/postgres`, inUse: true, reachable: true, lagSeconds: 0 }] } } }, '/ready: the replica in use, caught up');
    const [served, p] = await Promise.all([fetch(`${url}/api/v2/blocks`).then(async (r) => ({ status: r.status, body: (await r.json()) as unknown })), hostP.get('/api/v2/blocks')]);
    t.same(served, p, 'it answers as the primary');
    mark('serve --read-db');
  });
}
