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
import type { Address, Hash } from '../../lib/domain/records.ts';
import { noticeOf } from '../../lib/feed/change.ts';
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

/**
 * change_log.pending_dropped: the dropped hashes as a JSON array, or, when the write dropped
 * pending transactions from the pool, `{"hashes": […], "parties": […]}` (their rows are gone after
 * the commit: a listener elsewhere reads their senders and receivers here). Both forms are read.
 */
function droppedColumn(change: Omit<ChangeNotice, 'version'>): string | null {
  if (change.pendingDropped.length === 0) return null;
  const parties = change.droppedParties ?? [];
  return JSON.stringify(parties.length === 0 ? change.pendingDropped : { hashes: change.pendingDropped, parties });
}

/** the dropped hashes and parties of a change_log row's pending_dropped (either form) */
function droppedOf(value: unknown): Pick<ChangeNotice, 'pendingDropped' | 'droppedParties'> {
  if (typeof value !== 'string') return { pendingDropped: [] };
  const parsed = JSON.parse(value) as Hash[] | { hashes: Hash[]; parties: Address[] };
  return Array.isArray(parsed) ? { pendingDropped: parsed } : { pendingDropped: parsed.hashes, droppedParties: parsed.parties };
}

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
    pending_dropped: droppedColumn(change),
  });
  if (version % 100 === 0) await trx('change_log').where('version', '<=', version - CHANGE_LOG_KEEP).delete();
  const notice: ChangeNotice = { ...noticeOf({ ...change, version }) };
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

    return {
      version: Number(r['version']),
      blocks: from === null || to === null ? null : { from, to },
      rolledBackTo: numOrNull(r['rolled_back_to']),
      pendingAdded: typeof pending === 'string' ? (JSON.parse(pending) as Hash[]) : [],
      ...droppedOf(r['pending_dropped']),
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

/** A feed's state, passed to each of its steps. */
interface FeedState {
  readonly knex: Knex;
  readonly d: Dialect;
  readonly ds: DataSource;
  readonly local: ChangeFeed;
  readonly options: SqlFeedOptions;
  readonly listeners: Set<ChangeListener>;
  /** the last version delivered; null while stopped or starting */
  last: number | null;
  /** the catch-ups, serialized */
  chain: Promise<void>;
  stopLocal: (() => void) | null;
  timer: ReturnType<typeof setInterval> | null;
  conn: PgConnection | null;
  closed: boolean;
  /** this process's writes made while the feed starts (from subscribe on: "every change from now on") */
  early: Change[] | null;
  /** the feed's starts and stops, one after the other */
  starting: Promise<void>;
}

function deliver(s: FeedState, change: Change): void {
  s.last = change.version;
  for (const l of [...s.listeners]) {
    try {
      l(change);
    } catch {
      // a listener's failure is its own
    }
  }
}

/** read the log above the last version delivered and deliver it (serialized) */
function catchUp(s: FeedState): Promise<void> {
  s.chain = s.chain.then(async () => {
    if (s.last === null || s.listeners.size === 0) return;
    try {
      for (const notice of await noticesAbove(s.knex, s.last)) {
        if (notice.version <= (s.last ?? 0)) continue;
        const change = await describeNotice(s.ds, notice);
        // delivered meanwhile (this process's own write, at once after its commit): not twice
        if (s.last === null || change.version <= s.last) continue;
        deliver(s, change);
      }
    } catch {
      // the database is away: the next notification or poll tries again
    }
  });
  return s.chain;
}

function onLocal(s: FeedState, change: Change): void {
  if (s.early !== null) {
    s.early.push(change);
    return;
  }
  // the next version: at once, synchronously after the commit; after a gap (another
  // process wrote in between, not yet seen): through the log, in order
  if (s.last !== null && change.version === s.last + 1) deliver(s, change);
  else if (s.last === null || change.version > s.last) void catchUp(s);
}

async function listenPg(s: FeedState): Promise<void> {
  if (s.closed || s.listeners.size === 0) return;
  const { knex } = s;
  try {
    const c = (await knex.client.acquireConnection()) as PgConnection;
    const channel = (await c.query('select current_schema() as s')).rows[0]?.s ?? 'public';
    await c.query(`LISTEN "${`scoutkit_changes:${channel}`.replace(/"/g, '""')}"`);
    s.conn = c;
    c.on('notification', () => void catchUp(s));
    const lost = (): void => {
      if (s.conn !== c) return;
      s.conn = null;
      c.removeAllListeners('notification');
      void knex.client.releaseConnection(c).catch(() => undefined);
      // reconnect, then catch up from the last version delivered
      setTimeout(() => void listenPg(s).then(() => catchUp(s)), 1000).unref();
    };
    c.on('error', lost);
    c.on('end', lost);
    void catchUp(s); // what was written while no one listened
  } catch {
    setTimeout(() => void listenPg(s), 1000).unref();
  }
}

/** SQLite: poll the data version, and catch up when it moved */
function pollVersion(s: FeedState): void {
  let seen = String(s.last);
  s.timer = setInterval(() => {
    void s
      .knex('data_version')
      .select('version')
      .where('id', 1)
      .then((rows: unknown) => {
        const v = String(asRows(rows)[0]?.['version'] ?? '0');
        if (v !== seen) {
          seen = v;
          void catchUp(s);
        }
      })
      .catch(() => undefined);
  }, s.options.pollMs ?? 100);
  s.timer.unref();
}

async function startFeed(s: FeedState): Promise<void> {
  let buffered: Change[] = [];
  try {
    const row = asRows(await s.knex('data_version').select('version').where('id', 1))[0];
    const current = Number(row?.['version'] ?? 0);
    buffered = s.early ?? [];
    // a write committed after subscribe but before the version was read is delivered too
    s.last = Math.min(current, (buffered[0]?.version ?? Infinity) - 1);
  } finally {
    s.early = null;
  }
  for (const change of buffered) onLocal(s, change);
  if (s.d.notifies) await listenPg(s);
  else pollVersion(s);
}

async function stopFeed(s: FeedState): Promise<void> {
  if (s.timer !== null) clearInterval(s.timer);
  s.timer = null;
  const c = s.conn;
  s.conn = null;
  s.last = null;
  if (c !== null) {
    c.removeAllListeners('notification');
    c.removeAllListeners('error');
    c.removeAllListeners('end');
    await c.query('UNLISTEN *').catch(() => undefined);
    await s.knex.client.releaseConnection(c);
  }
}

function subscribeFeed(s: FeedState, listener: ChangeListener): () => void {
  s.listeners.add(listener);
  if (s.listeners.size === 1) {
    // this process's writes from now on, kept until the feed knows where it starts
    s.early = [];
    s.stopLocal = s.local.subscribe((change) => onLocal(s, change));
    s.starting = s.starting.then(() => startFeed(s)).catch(() => undefined);
  }
  return () => {
    if (!s.listeners.delete(listener)) return;
    if (s.listeners.size === 0) {
      s.stopLocal?.();
      s.stopLocal = null;
      s.starting = s.starting.then(() => stopFeed(s)).catch(() => undefined);
    }
  };
}

/** the changes above a version, from the log; null when the log no longer reaches back to it */
async function changesSince(knex: Knex, ds: DataSource, version: number): Promise<Change[] | null> {
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
}

async function closeFeed(s: FeedState): Promise<void> {
  s.closed = true;
  s.listeners.clear();
  s.stopLocal?.();
  s.stopLocal = null;
  await s.starting;
  await stopFeed(s);
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
  const s: FeedState = {
    knex,
    d,
    ds,
    local,
    options,
    listeners: new Set(),
    last: null,
    chain: Promise.resolve(),
    stopLocal: null,
    timer: null,
    conn: null,
    closed: false,
    early: null,
    starting: Promise.resolve(),
  };
  return {
    subscribe: (listener) => subscribeFeed(s, listener),
    since: (version) => changesSince(knex, ds, version),
    close: () => closeFeed(s),
  };
}
