/**
 * A feed over a change log table, shared by the chain's feed (./feed.ts: `change_log`, the data
 * version) and the contract store's (./contractFeed.ts: `contract_changes`, the contract version).
 *
 * - `local` carries this process's writes, announced synchronously after their commit.
 * - Other processes' writes: a listener wakes on NOTIFY (Postgres, one pooled connection
 *   LISTENing on `<channel><schema>`) or on the version poll (SQLite, every `pollMs`), and reads
 *   the log above the last version it delivered — so nothing is lost over a reconnect, and every
 *   change is delivered once, in version order.
 * - It runs only while someone is subscribed: the first subscriber starts it, the last one's
 *   unsubscribe stops it.
 */
import type { Knex } from 'knex';
import type { Dialect } from './dialect.ts';

/** what a log feed reads, and where */
export interface LogFeedSource<C extends { readonly version: number }> {
  readonly knex: Knex;
  readonly d: Dialect;
  /** this process's own writes */
  readonly local: { subscribe(listener: (change: C) => void): () => void };
  /** the NOTIFY channel's prefix; the store's schema completes it (several stores may share a database) */
  readonly channel: string;
  /** SQLite: how often the version is polled (ms) */
  readonly pollMs: number;
  /** the current version (0 before any change) */
  readVersion(): Promise<number>;
  /** the logged changes above `version`, oldest first */
  changesAbove(version: number): Promise<readonly C[]>;
}

/** the part of a pg client the listener uses */
interface PgConnection {
  query(sql: string): Promise<unknown>;
  on(event: 'notification' | 'error' | 'end', listener: () => void): void;
  removeAllListeners(event: string): void;
}

/** A feed's state, passed to each of its steps. */
interface FeedState<C extends { readonly version: number }> {
  readonly src: LogFeedSource<C>;
  readonly listeners: Set<(change: C) => void>;
  /** the last version delivered; null while stopped or starting */
  last: number | null;
  /** this process's writes made while the feed starts (from subscribe on: "every change from now on") */
  early: C[] | null;
  /** the catch-ups, serialized */
  chain: Promise<void>;
  /** the feed's starts and stops, one after the other */
  starting: Promise<void>;
  stopLocal: (() => void) | null;
  timer: ReturnType<typeof setInterval> | null;
  conn: PgConnection | null;
  closed: boolean;
}

function deliver<C extends { readonly version: number }>(s: FeedState<C>, change: C): void {
  s.last = change.version;
  for (const l of [...s.listeners]) {
    try {
      l(change);
    } catch {
      // a listener's failure is its own: the others still get the change
    }
  }
}

/** read the log above the last version delivered and deliver it (serialized) */
function catchUp<C extends { readonly version: number }>(s: FeedState<C>): Promise<void> {
  s.chain = s.chain.then(async () => {
    if (s.last === null || s.listeners.size === 0) return;
    try {
      for (const change of await s.src.changesAbove(s.last)) {
        // delivered meanwhile (this process's own write, at once after its commit): not twice
        if (s.last !== null && change.version > s.last) deliver(s, change);
      }
    } catch {
      // the database is away: the next notification or poll tries again
    }
  });
  return s.chain;
}

function onLocal<C extends { readonly version: number }>(s: FeedState<C>, change: C): void {
  if (s.early !== null) {
    s.early.push(change);
    return;
  }
  // the next version: at once, synchronously after the commit; after a gap (another
  // process wrote in between, not yet seen): through the log, in order
  if (s.last !== null && change.version === s.last + 1) deliver(s, change);
  else if (s.last === null || change.version > s.last) void catchUp(s);
}

async function listenPg<C extends { readonly version: number }>(s: FeedState<C>): Promise<void> {
  if (s.closed || s.listeners.size === 0) return;
  const { knex } = s.src;
  try {
    const c = (await knex.client.acquireConnection()) as PgConnection;
    const result = (await c.query('select current_schema() as s')) as { rows: { s?: string }[] };
    const channel = `${s.src.channel}${result.rows[0]?.s ?? 'public'}`;
    await c.query(`LISTEN "${channel.replace(/"/g, '""')}"`);
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

/** SQLite: poll the version, and catch up when it moved */
function pollVersion<C extends { readonly version: number }>(s: FeedState<C>): void {
  let seen = s.last;
  s.timer = setInterval(() => {
    void s.src
      .readVersion()
      .then((v) => {
        if (v !== seen) {
          seen = v;
          void catchUp(s);
        }
      })
      .catch(() => undefined);
  }, s.src.pollMs);
  s.timer.unref();
}

async function startFeed<C extends { readonly version: number }>(s: FeedState<C>): Promise<void> {
  let buffered: C[] = [];
  try {
    const current = await s.src.readVersion();
    buffered = s.early ?? [];
    // a write committed after subscribe but before the version was read is delivered too
    s.last = Math.min(current, (buffered[0]?.version ?? Infinity) - 1);
  } finally {
    s.early = null;
  }
  for (const change of buffered) onLocal(s, change);
  if (s.src.d.notifies) await listenPg(s);
  else pollVersion(s);
}

async function stopFeed<C extends { readonly version: number }>(s: FeedState<C>): Promise<void> {
  if (s.timer !== null) clearInterval(s.timer);
  s.timer = null;
  const c = s.conn;
  s.conn = null;
  s.last = null;
  if (c !== null) {
    for (const event of ['notification', 'error', 'end']) c.removeAllListeners(event);
    await c.query('UNLISTEN *').catch(() => undefined);
    await s.src.knex.client.releaseConnection(c);
  }
}

function subscribeFeed<C extends { readonly version: number }>(s: FeedState<C>, listener: (change: C) => void): () => void {
  s.listeners.add(listener);
  if (s.listeners.size === 1) {
    // this process's writes from now on, kept until the feed knows where it starts
    s.early = [];
    s.stopLocal = s.src.local.subscribe((change) => onLocal(s, change));
    s.starting = s.starting.then(() => startFeed(s)).catch(() => undefined);
  }
  return () => {
    if (!s.listeners.delete(listener) || s.listeners.size > 0) return;
    s.stopLocal?.();
    s.stopLocal = null;
    s.starting = s.starting.then(() => stopFeed(s)).catch(() => undefined);
  };
}

/** The listening half of a log feed: subscribe (the first starts it) and close. */
export function createLogFeed<C extends { readonly version: number }>(
  src: LogFeedSource<C>,
): { subscribe(listener: (change: C) => void): () => void; close(): Promise<void> } {
  const s: FeedState<C> = {
    src,
    listeners: new Set(),
    last: null,
    early: null,
    chain: Promise.resolve(),
    starting: Promise.resolve(),
    stopLocal: null,
    timer: null,
    conn: null,
    closed: false,
  };
  return {
    subscribe: (listener) => subscribeFeed(s, listener),
    async close() {
      s.closed = true;
      s.listeners.clear();
      s.stopLocal?.();
      s.stopLocal = null;
      await s.starting;
      await stopFeed(s);
    },
  };
}
