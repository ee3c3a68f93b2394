/**
 * A SQL store's read replicas (Postgres streaming standbys): which copy a request reads, and
 * how each replica is doing.
 *
 * - Every `probeMs` the primary, then each replica, is asked for its data version (the counter
 *   every write bumps, replicated with the data) and its highest block. The primary's versions
 *   are kept with the time a probe first saw each one; a replica's lag is the time since the
 *   primary first had a version above the replica's (0 when it has the primary's last one). So
 *   the lag says how long the replica has been missing a write, whatever the clocks, and an idle
 *   primary never makes a replica look behind (as `now() - pg_last_xact_replay_timestamp()` would).
 *   Only a replica behind writes the probes never saw come (behind already when probing began) is
 *   given Postgres's own figure, `now() - pg_last_xact_replay_timestamp()`, as the least lag.
 * - A replica is in use while it answers and its lag is at most `maxLagSeconds`. A request that
 *   fails to reach it takes it out at once; a probe puts it back once it answers and is within
 *   the lag again.
 * - `pick()` hands requests the replicas in use in turn, the primary when none is; with a block
 *   (a page cursor's), only a replica whose probed head holds it.
 *
 * The version an answer is cached under is read through the copy picked, like the records
 * (lib/explorer.ts), so a lagging replica never stores old records under a newer version.
 */
import type { Knex } from 'knex';
import type { DataSource, ReadReplicas, ReplicaState, VersionedDataSource } from '../../lib/ports.ts';
import { isStoreUnreachable } from './unavailable.ts';

/** a replica further behind than this is left out (seconds) */
export const DEFAULT_MAX_REPLICA_LAG_SECONDS = 10;
export const DEFAULT_REPLICA_PROBE_MS = 1000;

export interface ReplicaOptions {
  /** a replica missing a write for longer than this is left out until it has caught up (default 10 s) */
  readonly maxLagSeconds?: number;
  /** how often the primary and each replica are asked for their data version and head (default 1000 ms) */
  readonly probeMs?: number;
  /** a probe not answered within this counts as unreachable (default 2000 ms) */
  readonly probeTimeoutMs?: number;
  /** the clock, in ms (tests; default Date.now) */
  readonly now?: () => number;
}

/** One replica: where it is, its connections, and the reader over them. */
export interface ReplicaReader {
  /** `host:port/database`, no credentials */
  readonly name: string;
  readonly knex: Knex;
  readonly source: VersionedDataSource;
  /** the contract store's change counter on this copy (probed with the rest; ./contractFeed.ts) */
  readonly contractVersion?: () => Promise<number>;
}

export interface ReplicaSet extends ReadReplicas {
  /**
   * The connections of a replica in use whose probed contract version is at least `minVersion`
   * (in turn, as pick), or null: read the primary. A replica only moves forward, so it holds at
   * least what it was probed holding: a contract store reads its own writes (adapters/sql/contractStore.ts).
   */
  pickForContracts(minVersion: number): Knex | null;
  /** probe the primary and every replica now (the loop does it every probeMs) */
  probe(): Promise<void>;
  /** stop probing and close the replicas' connections */
  close(): Promise<void>;
}

interface Tracked {
  readonly reader: ReplicaReader;
  /** the replica's source, telling its state when a read cannot reach it */
  readonly source: DataSource;
  reachable: boolean;
  version: number | null;
  head: number | null;
  lagSeconds: number | null;
  versionsBehind: number | null;
  inUse: boolean;
  /** the contract version last probed (null: not known) */
  contractVersion: number | null;
}

/** primary versions kept for the lag (a replica further back than the oldest reads as that old) */
const MAX_SEEN = 10_000;

/** `host:port/database` of a Postgres URL (no user, no password) */
export function replicaName(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port === '' ? '5432' : u.port}${u.pathname === '' ? '/' : u.pathname}`;
  } catch {
    return 'replica';
  }
}

/** The source with every method's unreachable failure told to `lost` (and thrown as it is). */
function reporting(source: VersionedDataSource, lost: () => void): DataSource {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(source)) {
    if (typeof value !== 'function') {
      out[name] = value;
      continue;
    }
    const method = value as (...args: unknown[]) => Promise<unknown>;
    out[name] = (...args: unknown[]): Promise<unknown> =>
      method(...args).catch((error: unknown) => {
        if (isStoreUnreachable(error)) lost();
        throw error;
      });
  }
  return out as unknown as DataSource;
}

/** seconds since the last transaction a standby replayed was committed (0 when it tells none) */
async function replayAge(knex: Knex): Promise<number> {
  const result = (await knex.raw('select extract(epoch from (now() - pg_last_xact_replay_timestamp())) as s')) as { rows?: { s?: unknown }[] };
  const s = Number(result.rows?.[0]?.s ?? 0);
  return Number.isFinite(s) ? Math.max(0, s) : 0;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * The read replicas of a store whose primary is read through `primary` (its version probed,
 * and handed out by pick() when no replica is in use). Probing starts at once; await `probe()`
 * for the first states.
 */
export function createReplicaSet(primary: () => VersionedDataSource, readers: readonly ReplicaReader[], options: ReplicaOptions = {}): ReplicaSet {
  const maxLag = options.maxLagSeconds ?? DEFAULT_MAX_REPLICA_LAG_SECONDS;
  const timeoutMs = options.probeTimeoutMs ?? 2000;
  const now = options.now ?? Date.now;
  const tracked: Tracked[] = readers.map((reader) => {
    const t: Tracked = {
      reader,
      source: reporting(reader.source, () => {
        t.reachable = false;
        t.inUse = false;
      }),
      reachable: false,
      version: null,
      head: null,
      lagSeconds: null,
      versionsBehind: null,
      inUse: false,
      contractVersion: null,
    };
    return t;
  });
  /** the primary's versions, ascending, each with when a probe first saw it (ms) */
  const seen: { version: number; at: number }[] = [];
  /** the primary's version when probing began: a replica behind it missed writes from before, of unknown age */
  let firstKnown: number | null = null;
  let next = 0;
  let probing: Promise<void> | null = null;
  let closed = false;

  const lagOf = (version: number, at: number): number => {
    const first = seen.find((s) => s.version > version);
    return first === undefined ? 0 : Math.max(0, (at - first.at) / 1000);
  };

  const probeOnce = async (): Promise<void> => {
    const started = now();
    try {
      const version = Number(await withTimeout(primary().getDataVersion(), timeoutMs));
      const last = seen[seen.length - 1];
      // a lower version: the store was rebuilt; start afresh
      if (last !== undefined && version < last.version) seen.length = 0;
      if (seen.length === 0) firstKnown = version;
      if (last === undefined || version > last.version) seen.push({ version, at: started });
      if (seen.length > MAX_SEEN) seen.splice(0, seen.length - MAX_SEEN);
    } catch {
      // the primary is away: the replicas are judged against its last version known
    }
    const primaryVersion = seen[seen.length - 1]?.version ?? null;
    await Promise.all(
      tracked.map(async (t) => {
        try {
          const [version, head] = await withTimeout(Promise.all([t.reader.source.getDataVersion(), t.reader.source.getHighestBlockNumber()]), timeoutMs);
          const v = Number(version);
          t.reachable = true;
          t.version = v;
          t.head = head;
          t.versionsBehind = primaryVersion === null ? 0 : Math.max(0, primaryVersion - v);
          // behind writes older than the probes: Postgres says since when it has replayed none
          const before = firstKnown !== null && v < firstKnown ? await withTimeout(replayAge(t.reader.knex), timeoutMs) : 0;
          t.lagSeconds = Math.max(lagOf(v, now()), before);
          t.inUse = t.lagSeconds <= maxLag;
          const contractVersion = t.reader.contractVersion;
          t.contractVersion = contractVersion === undefined ? null : await withTimeout(contractVersion(), timeoutMs).catch(() => null);
        } catch {
          t.reachable = false;
          t.inUse = false;
        }
      }),
    );
    // what every replica has replayed is no longer needed for the lag
    const oldest = Math.min(...tracked.map((t) => t.version ?? -1));
    while (seen.length > 1 && (seen[0] as { version: number }).version <= oldest) seen.shift();
  };

  const probe = (): Promise<void> => {
    probing ??= probeOnce().finally(() => {
      probing = null;
    });
    return probing;
  };

  const timer = setInterval(() => {
    if (!closed) void probe();
  }, options.probeMs ?? DEFAULT_REPLICA_PROBE_MS);
  timer.unref();

  return {
    pickForContracts(minVersion) {
      const n = tracked.length;
      for (let i = 0; i < n; i++) {
        const t = tracked[(next + i) % n] as Tracked;
        if (!t.inUse || t.contractVersion === null || t.contractVersion < minVersion) continue;
        next = (next + i + 1) % n;
        return t.reader.knex;
      }
      return null;
    },
    pick(atLeastBlock) {
      const n = tracked.length;
      for (let i = 0; i < n; i++) {
        const t = tracked[(next + i) % n] as Tracked;
        if (!t.inUse) continue;
        if (atLeastBlock !== undefined && (t.head === null || t.head < atLeastBlock)) continue;
        next = (next + i + 1) % n;
        return t.source;
      }
      return primary();
    },
    states(): readonly ReplicaState[] {
      return tracked.map(
        (t): ReplicaState => ({
          name: t.reader.name,
          inUse: t.inUse,
          reachable: t.reachable,
          lagSeconds: t.lagSeconds,
          versionsBehind: t.versionsBehind,
          highestBlock: t.head,
        }),
      );
    },
    probe,
    async close() {
      closed = true;
      clearInterval(timer);
      await probing?.catch(() => undefined);
      await Promise.allSettled(readers.map((r) => r.knex.destroy()));
    },
  };
}
