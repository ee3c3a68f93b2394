/**
 * The SQL store's change feed.
 *
 * - The writer logs every write transaction that changed something in `change_log` (keyed by the
 *   data version it produced) and, on Postgres, `pg_notify`s the notice in the same transaction
 *   (delivered at commit; payload: the version, block range and rollback marker).
 * - In process, a write is announced synchronously after its commit.
 * - Across processes a listener wakes on NOTIFY (Postgres, one pooled connection LISTENing) or on
 *   the data-version poll (SQLite, every `pollMs`), and reads the log above the last version it
 *   delivered: so nothing is lost when it reconnects, and every change is delivered once, in
 *   version order. The detail (transactions, addresses, tokens) is read through the ports.
 *
 * Why a log table rather than deriving changes from the blocks above the last seen head: a
 * rollback followed by new blocks at the same heights, and pending writes, leave nothing to
 * derive them from; one small row per write (pruned to the newest CHANGE_LOG_KEEP) says it exactly.
 */
import type { Knex } from 'knex';
import type { Hash } from '../../lib/domain/records.ts';
import type { Change, ChangeFeed, ChangeListener, ChangeNotice } from '../../lib/feed/change.ts';
import { describeNotice } from '../../lib/feed/describe.ts';
import type { DataSource } from '../../lib/ports.ts';
import type { Dialect } from './dialect.ts';
import { asRows } from './rows.ts';

/** rows kept in change_log: a listener further behind starts afresh (since → null) */
export const CHANGE_LOG_KEEP = 10_000;

/** the NOTIFY channel of the store's schema (several stores may share one database) */
const CHANNEL_SQL = `'scoutkit_changes:' || current_schema()`;

const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** Inside a write transaction, after the version bump: log the change, notify (Postgres), and return its notice. */
export async function logChange(trx: Knex.Transaction, d: Dialect, change: Omit<ChangeNotice, 'version'>): Promise<ChangeNotice> {
  const row = asRows(await trx('data_version').select('version').where('id', 1))[0];
  const version = Number(row?.['version'] ?? 0);
  await trx('change_log').insert({
    version,
    from_block: change.blocks?.from ?? null,
    to_block: change.blocks?.to ?? null,
    rolled_back_to: change.rolledBackTo,
    pending: change.pendingAdded.length === 0 ? null : JSON.stringify(change.pendingAdded),
    pending_dropped: change.pendingDropped.length === 0 ? null : JSON.stringify(change.pendingDropped),
  });
  if (version % 100 === 0) await trx('change_log').where('version', '<=', version - CHANGE_LOG_KEEP).delete();
  const notice: ChangeNotice = { version, blocks: change.blocks, rolledBackTo: change.rolledBackTo, pendingAdded: change.pendingAdded, pendingDropped: change.pendingDropped };
  if (d.notifies) {
    // the small payload: the version and the range (pending hashes, added and dropped, are read from the log)
    const payload = JSON.stringify({ v: version, b: change.blocks, r: change.rolledBackTo });
    await trx.raw(`select pg_notify(${CHANNEL_SQL}, ?)`, [payload]);
  }
  return notice;
}

/** The logged notices above `version`, oldest first. */
async function noticesAbove(knex: Knex, version: number): Promise<ChangeNotice[]> {
  const rows = asRows(await knex('change_log').where('version', '>', version).orderBy('version', 'asc'));
  return rows.map((r) => {
    const from = numOrNull(r['from_block']);
    const to = numOrNull(r['to_block']);
    const pending = r['pending'];
    const dropped = r['pending_dropped'];
    return {
      version: Number(r['version']),
      blocks: from === null || to === null ? null : { from, to },
      rolledBackTo: numOrNull(r['rolled_back_to']),
      pendingAdded: typeof pending === 'string' ? (JSON.parse(pending) as Hash[]) : [],
      pendingDropped: typeof dropped === 'string' ? (JSON.parse(dropped) as Hash[]) : [],
    };
  });
}

/** the part of a pg client the listener uses */
interface PgConnection {
  query(sql: string): Promise<{ rows: { s?: string }[] }>;
  on(event: 'notification', listener: (msg: { channel: string; payload?: string }) => void): void;
  on(event: 'error' | 'end', listener: () => void): void;
  removeAllListeners(event: string): void;
}

export interface SqlFeedOptions {
  /** SQLite: how often the data version is polled for other processes' writes (default 100 ms) */
  readonly pollMs?: number;
}

/**
 * The feed of a store: `local` carries this process's writes; others' are read from the log on
 * NOTIFY (Postgres) or the version poll (SQLite), only while someone is subscribed.
 */
export function createSqlFeed(
  knex: Knex,
  d: Dialect,
  ds: DataSource,
  local: ChangeFeed,
  options: SqlFeedOptions = {},
): ChangeFeed & { close(): Promise<void> } {
  const listeners = new Set<ChangeListener>();
  let last: number | null = null;
  let chain: Promise<void> = Promise.resolve();
  let stopLocal: (() => void) | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;
  let conn: PgConnection | null = null;
  let closed = false;

  const deliver = (change: Change): void => {
    last = change.version;
    for (const l of [...listeners]) {
      try {
        l(change);
      } catch {
        // a listener's failure is its own
      }
    }
  };

  /** read the log above the last version delivered and deliver it (serialized) */
  const catchUp = (): Promise<void> => {
    chain = chain.then(async () => {
      if (last === null || listeners.size === 0) return;
      try {
        for (const notice of await noticesAbove(knex, last)) {
          if (notice.version <= (last ?? 0)) continue;
          const change = await describeNotice(ds, notice);
          // delivered meanwhile (this process's own write, at once after its commit): not twice
          if (last === null || change.version <= last) continue;
          deliver(change);
        }
      } catch {
        // the database is away: the next notification or poll tries again
      }
    });
    return chain;
  };

  /** this process's writes made while the feed starts (from subscribe on: "every change from now on") */
  let early: Change[] | null = null;
  const onLocal = (change: Change): void => {
    if (early !== null) {
      early.push(change);
      return;
    }
    // the next version: at once, synchronously after the commit; after a gap (another
    // process wrote in between, not yet seen): through the log, in order
    if (last !== null && change.version === last + 1) deliver(change);
    else if (last === null || change.version > last) void catchUp();
  };

  const listenPg = async (): Promise<void> => {
    if (closed || listeners.size === 0) return;
    try {
      const c = (await knex.client.acquireConnection()) as PgConnection;
      const channel = (await c.query('select current_schema() as s')).rows[0]?.s ?? 'public';
      await c.query(`LISTEN "${`scoutkit_changes:${channel}`.replace(/"/g, '""')}"`);
      conn = c;
      c.on('notification', () => void catchUp());
      const lost = (): void => {
        if (conn !== c) return;
        conn = null;
        c.removeAllListeners('notification');
        void knex.client.releaseConnection(c).catch(() => undefined);
        // reconnect, then catch up from the last version delivered
        setTimeout(() => void listenPg().then(catchUp), 1000).unref();
      };
      c.on('error', lost);
      c.on('end', lost);
      void catchUp(); // what was written while no one listened
    } catch {
      setTimeout(() => void listenPg(), 1000).unref();
    }
  };

  const start = async (): Promise<void> => {
    let buffered: Change[] = [];
    try {
      const row = asRows(await knex('data_version').select('version').where('id', 1))[0];
      const current = Number(row?.['version'] ?? 0);
      buffered = early ?? [];
      // a write committed after subscribe but before the version was read is delivered too
      last = Math.min(current, (buffered[0]?.version ?? Infinity) - 1);
    } finally {
      early = null;
    }
    for (const change of buffered) onLocal(change);
    if (d.notifies) await listenPg();
    else {
      let seen = String(last);
      timer = setInterval(() => {
        void knex('data_version')
          .select('version')
          .where('id', 1)
          .then((rows: unknown) => {
            const v = String(asRows(rows)[0]?.['version'] ?? '0');
            if (v !== seen) {
              seen = v;
              void catchUp();
            }
          })
          .catch(() => undefined);
      }, options.pollMs ?? 100);
      timer.unref();
    }
  };

  const stop = async (): Promise<void> => {
    if (timer !== null) clearInterval(timer);
    timer = null;
    const c = conn;
    conn = null;
    last = null;
    if (c !== null) {
      c.removeAllListeners('notification');
      c.removeAllListeners('error');
      c.removeAllListeners('end');
      await c.query('UNLISTEN *').catch(() => undefined);
      await knex.client.releaseConnection(c);
    }
  };

  let starting: Promise<void> = Promise.resolve();
  return {
    subscribe(listener) {
      listeners.add(listener);
      if (listeners.size === 1) {
        // this process's writes from now on, kept until the feed knows where it starts
        early = [];
        stopLocal = local.subscribe(onLocal);
        starting = starting.then(start).catch(() => undefined);
      }
      return () => {
        if (!listeners.delete(listener)) return;
        if (listeners.size === 0) {
          stopLocal?.();
          stopLocal = null;
          starting = starting.then(stop).catch(() => undefined);
        }
      };
    },
    async since(version) {
      const notices = await noticesAbove(knex, version);
      const first = notices[0];
      if (first !== undefined && first.version > version + 1 && first.version - version > 1) {
        // pruned past it (or written before the log existed)
        const min = asRows(await knex('change_log').min({ m: 'version' }))[0]?.['m'];
        if (min !== undefined && min !== null && Number(min) > version + 1) return null;
      }
      const out: Change[] = [];
      for (const n of notices) out.push(await describeNotice(ds, n));
      return out;
    },
    async close() {
      closed = true;
      listeners.clear();
      stopLocal?.();
      stopLocal = null;
      await starting;
      await stop();
    },
  };
}
