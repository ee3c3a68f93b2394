/**
 * The SQL store's writer lease (lib/indexer/lease.ts), held for a whole indexer run:
 *
 * - Postgres: a session-level advisory lock (pg_try_advisory_lock, keyed by the store's schema)
 *   on a connection of its own, outside the store's pools. The server releases it when that
 *   session ends, so a holder killed at any point frees it at once, and its open write
 *   transaction is rolled back by the same token. The holder's pid, host and start show as
 *   the connection's application_name and backend_start in pg_stat_activity, which a second
 *   indexer reads to name it. If the lease connection dies (error, end, or a heartbeat that
 *   gets no answer) the lease is lost.
 * - SQLite file: an OS-level lock — an EXCLUSIVE transaction held open on a small SQLite file
 *   beside the database (`<db>-lease`); SQLite locks it with fcntl, which the kernel releases
 *   when the holder's process ends however it ends. No pid-liveness guess, no stale timeout: a
 *   standby takes over at its next attempt. (A lock-directory library such as proper-lockfile
 *   declares a holder dead only after its mtime goes stale, seconds later, and can be fooled by
 *   a paused process; the kernel's lock needs neither.) The holder's pid, host and start go to
 *   `<db>-lease.json` for the message a second indexer prints.
 * - `sqlite::memory:`: private to its connection, so an in-process lease.
 */
import { hostname } from 'node:os';
import { readFile, rename, writeFile } from 'node:fs/promises';
import pg from 'pg';
import sqlite3 from 'sqlite3';
import type { HeldLease, LeaseAttempt, LeaseHolder, StoreLease } from '../../lib/indexer/lease.ts';
import { createMemoryLease } from '../memory/lease.ts';
import { StoreUnavailableError } from '../../lib/sink/unavailable.ts';
import { sqliteFile } from './dialect.ts';
import { describeStoreError, isStoreUnreachable } from './unavailable.ts';

export interface SqlLeaseOptions {
  /** Postgres: the store's schema (as SqlStoreOptions.searchPath) */
  readonly searchPath?: string;
  /** Postgres: how often the lease connection is checked (default 1000 ms) */
  readonly heartbeatMs?: number;
}

/** the advisory lock's first key: scoutkit's indexer lease (the second: the schema's hash) */
const LEASE_CLASS = 615_263_779;

const me = (): LeaseHolder => ({ host: hostname(), pid: process.pid, since: new Date().toISOString() });

/** The writer lease of the store at `url` (`sqlite:<path>` or `postgres://…`). */
export function createSqlLease(url: string, options: SqlLeaseOptions = {}): StoreLease {
  const file = sqliteFile(url);
  if (file === ':memory:') return createMemoryLease({});
  return unreachableAsUnavailable(file !== null ? sqliteLease(file) : postgresLease(url, options));
}

/** a store that cannot be reached while the lease is asked for: StoreUnavailableError, which the indexer waits out */
function unreachableAsUnavailable(lease: StoreLease): StoreLease {
  return {
    tryAcquire: () =>
      lease.tryAcquire().catch((e: unknown) => {
        throw isStoreUnreachable(e) ? new StoreUnavailableError(`the store is unreachable: ${describeStoreError(e)}`, { cause: e }) : e;
      }),
  };
}

// ---- SQLite -----------------------------------------------------------------------------------

function openDb(path: string): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(path, (err) => (err === null ? resolve(db) : reject(err)));
  });
}
const exec = (db: sqlite3.Database, sql: string): Promise<void> =>
  new Promise((resolve, reject) => db.exec(sql, (err) => (err === null ? resolve() : reject(err))));
const closeDb = (db: sqlite3.Database): Promise<void> => new Promise((resolve) => db.close(() => resolve()));

const isBusy = (e: unknown): boolean => typeof e === 'object' && e !== null && 'code' in e && (e.code === 'SQLITE_BUSY' || e.code === 'SQLITE_LOCKED');

function parseHolder(text: string): LeaseHolder | null {
  try {
    const o: unknown = JSON.parse(text);
    if (typeof o !== 'object' || o === null) return null;
    const { host, pid, since } = o as Record<string, unknown>;
    return typeof host === 'string' && typeof pid === 'number' && typeof since === 'string' ? { host, pid, since } : null;
  } catch {
    return null;
  }
}

/**
 * Take `<file>-lease`'s exclusive lock, or null when another connection holds it (no waiting).
 * The lock stays until the returned database is closed or the process ends.
 */
export async function trySqliteFileLock(path: string, waitMs = 0): Promise<sqlite3.Database | null> {
  const db = await openDb(path);
  try {
    await exec(db, `PRAGMA busy_timeout = ${Math.max(0, Math.floor(waitMs))}; BEGIN EXCLUSIVE;`);
    return db;
  } catch (e) {
    await closeDb(db);
    if (isBusy(e)) return null;
    throw e;
  }
}

function sqliteLease(file: string): StoreLease {
  const lockPath = `${file}-lease`;
  const infoPath = `${file}-lease.json`;
  return {
    async tryAcquire(): Promise<LeaseAttempt> {
      const db = await trySqliteFileLock(lockPath);
      if (db === null) {
        const holder = await readFile(infoPath, 'utf8').then(parseHolder, () => null);
        return { acquired: false, holder };
      }
      const holder = me();
      const tmp = `${infoPath}.${process.pid}.tmp`;
      await writeFile(tmp, `${JSON.stringify(holder)}\n`);
      await rename(tmp, infoPath);
      let released = false;
      return {
        acquired: true,
        lease: {
          holder,
          // an OS lock held by this process: lost only with the process
          lost: new AbortController().signal,
          async release() {
            if (released) return;
            released = true;
            await closeDb(db);
          },
        },
      };
    },
  };
}

// ---- Postgres ---------------------------------------------------------------------------------

/**
 * `fn` under a session advisory lock (`key`, 0) of the database, taken on a client of its own
 * (waiting for it), released when `fn` settles.
 */
export async function withPgAdvisoryLock<T>(url: string, key: number, fn: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: 'scoutkit migrate' });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(`SELECT pg_advisory_lock(${Math.floor(key)}, 0)`);
    return await fn();
  } finally {
    await client.end().catch(() => {});
  }
}

const APP = /^scoutkit index (\d+)@(.*)$/;

function postgresLease(url: string, options: SqlLeaseOptions): StoreLease {
  const heartbeatMs = options.heartbeatMs ?? 1000;
  const key = `hashtext(current_schema())`;
  return {
    async tryAcquire(): Promise<LeaseAttempt> {
      const holder = me();
      const client = new pg.Client({
        connectionString: url,
        application_name: `scoutkit index ${holder.pid}@${holder.host}`.slice(0, 63),
        keepAlive: true,
        connectionTimeoutMillis: Math.max(5000, heartbeatMs * 5),
        query_timeout: Math.max(5000, heartbeatMs * 5),
      });
      // errors before the lease is held reject the queries below; after, they lose the lease
      const lost = new AbortController();
      client.on('error', () => lost.abort());
      client.on('end', () => lost.abort());
      await client.connect();
      let held = false;
      try {
        if (options.searchPath !== undefined) await client.query(`SET search_path TO ${pg.escapeIdentifier(options.searchPath)}`);
        const got = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${LEASE_CLASS}, ${key}) AS ok`);
        if (got.rows[0]?.ok !== true) {
          const who = await client.query<{ application_name: string; backend_start: Date | null }>(
            `SELECT a.application_name, a.backend_start FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
              WHERE l.locktype = 'advisory' AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                AND l.classid = ${LEASE_CLASS}::bigint::oid
                AND l.objid = (${key}::bigint & 4294967295)::oid AND l.objsubid = 2`,
          );
          const row = who.rows[0];
          const m = row === undefined ? null : APP.exec(row.application_name);
          return {
            acquired: false,
            holder: row === undefined || m === null ? null : { pid: Number(m[1]), host: m[2] ?? '', since: row.backend_start?.toISOString() ?? 'unknown' },
          };
        }
        held = true;
      } finally {
        if (!held) await client.end().catch(() => {});
      }
      // a connection that dies quietly (no error, no end) is found by the heartbeat
      let beating = false;
      const timer = setInterval(() => {
        if (beating || lost.signal.aborted) return;
        beating = true;
        client.query('SELECT 1').then(
          () => void (beating = false),
          () => lost.abort(),
        );
      }, heartbeatMs);
      timer.unref();
      lost.signal.addEventListener('abort', () => clearInterval(timer), { once: true });
      let released = false;
      const lease: HeldLease = {
        holder,
        lost: lost.signal,
        async release() {
          if (released) return;
          released = true;
          clearInterval(timer);
          // ending the session frees the lock; listeners first, so a release is not a loss
          client.removeAllListeners('end');
          client.removeAllListeners('error');
          client.on('error', () => {});
          await client.end().catch(() => {});
        },
      };
      return { acquired: true, lease };
    },
  };
}
