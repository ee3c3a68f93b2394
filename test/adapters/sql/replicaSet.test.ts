/**
 * The replica set's judgement (adapters/sql/replicas.ts) on stand-in copies and a clock of the
 * test's own: the lag from the primary's versions as the probes saw them come, the allowed lag,
 * turns across the replicas in use, a page cursor's block, a read that cannot reach a replica,
 * and Postgres's replay age for a replica behind before probing began. The same on a real
 * streaming standby: test/adapters/sql/replica.test.ts.
 */
import t from 'tap';
import type { Knex } from 'knex';
import { createReplicaSet, replicaName } from '../../../adapters/sql/replicas.ts';
import type { ReplicaReader } from '../../../adapters/sql/replicas.ts';
import { hash } from '../../../lib/domain/hex.ts';
import type { VersionedDataSource } from '../../../lib/ports.ts';

/** a copy whose version and head the test sets; `down` makes every call fail as an unreachable server does */
interface Copy {
  version: number;
  head: number | null;
  down: boolean;
  /** what pg_last_xact_replay_timestamp() is ago, in seconds */
  replayAge: number;
  readonly source: VersionedDataSource;
  readonly knex: Knex;
}

const refused = (): Error => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });

function copy(version: number, head: number | null): Copy {
  const c: Copy = {
    version,
    head,
    down: false,
    replayAge: 0,
    source: {
      getDataVersion: async () => {
        if (c.down) throw refused();
        return String(c.version);
      },
      getHighestBlockNumber: async () => {
        if (c.down) throw refused();
        return c.head;
      },
      getBlock: async () => {
        if (c.down) throw refused();
        return null;
      },
      getTransaction: async () => {
        throw new Error('a bug, not an outage');
      },
    } as unknown as VersionedDataSource,
    knex: {
      raw: async () => ({ rows: [{ s: String(c.replayAge) }] }),
      destroy: async () => {},
    } as unknown as Knex,
  };
  return c;
}

const reader = (name: string, c: Copy): ReplicaReader => ({ name, knex: c.knex, source: c.source });

t.test('lag from the versions the probes saw come; the allowed lag; turns; a block cursor', async (t) => {
  let clock = 0;
  const primary = copy(10, 100);
  const r1 = copy(10, 100);
  const r2 = copy(10, 100);
  const set = createReplicaSet(() => primary.source, [reader('r1', r1), reader('r2', r2)], { maxLagSeconds: 1.5, probeMs: 1e9, now: () => clock });
  t.teardown(() => set.close());
  t.same(set.states().map((s) => s.inUse), [false, false], 'nothing in use before the first probe');
  t.equal(set.pick(), primary.source, 'so the primary serves');
  await set.probe();
  t.same(set.states(), [
    { name: 'r1', inUse: true, reachable: true, lagSeconds: 0, versionsBehind: 0, highestBlock: 100 },
    { name: 'r2', inUse: true, reachable: true, lagSeconds: 0, versionsBehind: 0, highestBlock: 100 },
  ]);
  const picks = [set.pick(), set.pick(), set.pick()];
  t.not(picks[0], picks[1], 'the replicas in turn');
  t.equal(picks[0], picks[2]);
  t.ok(!picks.includes(primary.source), 'not the primary');

  // the primary writes at t=1 s; r1 replays it, r2 does not
  clock = 1000;
  primary.version = 12;
  primary.head = 102;
  r1.version = 12;
  r1.head = 102;
  await set.probe();
  t.match(set.states()[1], { lagSeconds: 0, versionsBehind: 2, inUse: true }, 'r2 behind, but since no time at all');
  clock = 2000;
  await set.probe();
  t.match(set.states()[1], { lagSeconds: 1, inUse: true }, 'r2: 1 s behind, within 1.5 s');
  clock = 3000;
  await set.probe();
  t.match(set.states()[1], { lagSeconds: 2, versionsBehind: 2, inUse: false, reachable: true }, 'r2: 2 s behind, left out');
  const only = set.pick();
  t.equal(set.pick(), only, 'r1 alone serves');
  t.not(only, primary.source);
  // a cursor's block: only a copy that holds it
  t.equal(set.pick(102), only, 'r1 holds block 102');
  t.equal(set.pick(103), primary.source, 'no replica holds block 103: the primary');

  // r2 catches up on the next write's probe: taken back
  clock = 4000;
  r2.version = 12;
  await set.probe();
  t.match(set.states()[1], { lagSeconds: 0, versionsBehind: 0, inUse: true }, 'r2 caught up: taken back');

  // the lag counts from the first write r2 lacks, not from its latest
  clock = 5000;
  primary.version = 13;
  r1.version = 13;
  await set.probe();
  clock = 5500;
  primary.version = 14;
  r1.version = 14;
  await set.probe();
  clock = 6600;
  await set.probe();
  t.match(set.states()[1], { lagSeconds: 1.6, versionsBehind: 2, inUse: false }, 'from the first write missed (5 s), not the last (5.5 s)');
  // none in use: the primary
  r1.down = true;
  await set.probe();
  t.same(set.states().map((s) => [s.reachable, s.inUse]), [[false, false], [true, false]], 'r1 unreachable, r2 too far behind');
  t.equal(set.pick(), primary.source, 'the primary serves');
});

t.test('a read that cannot reach a replica leaves it out at once; a bug does not', async (t) => {
  const primary = copy(5, 50);
  const r1 = copy(5, 50);
  const set = createReplicaSet(() => primary.source, [reader('r1', r1)], { probeMs: 1e9 });
  t.teardown(() => set.close());
  await set.probe();
  const picked = set.pick();
  t.not(picked, primary.source, 'r1 in use');
  await t.rejects(picked.getTransaction(hash('0x00')), /a bug/, 'a failure that is not an outage is thrown');
  t.equal(set.states()[0]?.inUse, true, 'and leaves the replica in use');
  r1.down = true;
  await t.rejects(picked.getBlock({ number: 1 }), /ECONNREFUSED/, 'an unreachable replica: thrown as it is');
  t.match(set.states()[0], { inUse: false, reachable: false }, 'and left out at once');
  t.equal(set.pick(), primary.source, 'the next request reads the primary');
  r1.down = false;
  await set.probe();
  t.equal(set.states()[0]?.inUse, true, 'a probe takes it back once it answers');
});

t.test('behind already when probing began: Postgres says how long', async (t) => {
  const primary = copy(20, 10);
  const r1 = copy(15, 8);
  r1.replayAge = 42.5;
  const set = createReplicaSet(() => primary.source, [reader('r1', r1)], { maxLagSeconds: 10, probeMs: 1e9 });
  t.teardown(() => set.close());
  await set.probe();
  t.match(set.states()[0], { lagSeconds: 42.5, versionsBehind: 5, inUse: false }, 'the replay age stands for the lag');
  r1.version = 20;
  await set.probe();
  t.match(set.states()[0], { lagSeconds: 0, inUse: true }, 'caught up: in use, whatever the replay age');
});

t.test('replica names carry no credentials', async (t) => {
  t.equal(replicaName('postgres://user:secret@db-2.internal:6432/chain'), 'db-2.internal:6432/chain');
  t.equal(replicaName('postgresql://db/x'), 'db:5432/x');
});
