/**
 * "The store is unreachable" (retry) told apart from real bugs (fatal), for knex over pg and
 * sqlite3. Unreachable: the network's errors (ECONNREFUSED, ECONNRESET, ...), Postgres's
 * connection exceptions (SQLSTATE class 08), its shutdown and start-up (57P01 admin_shutdown,
 * 57P02 crash_shutdown, 57P03 cannot_connect_now), too many connections (53300), pg's
 * "Connection terminated", knex's pool timeout, and SQLite's SQLITE_BUSY / SQLITE_LOCKED.
 * Everything else — constraint violations (23xxx), schema errors (42xxx), bad input — is
 * thrown as it is. guardSink maps the DataSink methods' unreachable failures to
 * StoreUnavailableError, which the indexer waits out.
 */
import type { DataSink } from '../../lib/ports.ts';
import { StoreUnavailableError } from '../../lib/sink/unavailable.ts';

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '53400']);
const SQLITE_CODES = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED']);
const MESSAGES =
  /Connection terminated|Connection ended unexpectedly|terminating connection due to|the database system is (starting up|shutting down|in recovery mode)|Client has encountered a connection error|Timeout acquiring a connection|connect ECONNREFUSED|read ECONNRESET|SQLITE_BUSY|database is locked/i;

/** the error, its causes and (for AggregateError) its errors, a few levels deep */
function related(error: unknown): object[] {
  const out: object[] = [];
  const queue: unknown[] = [error];
  while (queue.length > 0 && out.length < 16) {
    const e = queue.shift();
    if (typeof e !== 'object' || e === null || out.includes(e)) continue;
    out.push(e);
    if ('cause' in e) queue.push(e.cause);
    if ('errors' in e && Array.isArray(e.errors)) queue.push(...(e.errors as unknown[]));
  }
  return out;
}

const field = (e: object, key: string): unknown => (key in e ? (e as Record<string, unknown>)[key] : undefined);

/** Is this a failure to reach the store (worth waiting out), not a bug? */
export function isStoreUnreachable(error: unknown): boolean {
  for (const e of related(error)) {
    const code = field(e, 'code');
    if (typeof code === 'string') {
      if (NETWORK_CODES.has(code) || SQLSTATES.has(code) || SQLITE_CODES.has(code)) return true;
      if (/^08[0-9A-Z]{3}$/.test(code)) return true;
    }
    if (field(e, 'name') === 'KnexTimeoutError') return true;
    const message = field(e, 'message');
    if (typeof message === 'string' && MESSAGES.test(message)) return true;
  }
  return false;
}

/** the failure as said to the operator: the driver's message, its code, no SQL text */
export function describeStoreError(error: unknown): string {
  for (const e of related(error)) {
    const code = field(e, 'code');
    const message = field(e, 'message');
    if (typeof message !== 'string' || message === '') continue;
    // knex prefixes a query's failure with its SQL ("insert into ... - <driver message>")
    const own = message.includes(' - ') && /^(insert|update|delete|select|with|begin|commit|rollback)\b/i.test(message) ? message.slice(message.lastIndexOf(' - ') + 3) : message;
    const flat = own.replace(/\s+/g, ' ').trim();
    return typeof code === 'string' && !flat.includes(code) ? `${flat} (${code})` : flat;
  }
  return String(error);
}

const SINK_METHODS = [
  'writeBlocks',
  'writePendingTransactions',
  'pendingTransactions',
  'dropPendingTransactions',
  'rollbackAbove',
  'getIndexedHead',
  'getChainIdentity',
  'setChainIdentity',
  'settle',
  'beginBulk',
  'inBulk',
  'blocksWithLogs',
  'writeUserOperations',
] as const;

/**
 * The store with its DataSink methods' unreachable-store failures thrown as
 * StoreUnavailableError (the same object otherwise: reads are untouched, the server answers
 * any failed read 503).
 */
export function guardSink<T extends DataSink>(store: T): T {
  const guarded: T = { ...store };
  const mutable = guarded as Record<string, unknown>;
  for (const name of SINK_METHODS) {
    const method = store[name];
    if (typeof method !== 'function') continue;
    mutable[name] = (...args: unknown[]): Promise<unknown> =>
      (method as (...a: unknown[]) => Promise<unknown>).apply(store, args).catch((error: unknown) => {
        if (isStoreUnreachable(error)) throw new StoreUnavailableError(`the store is unreachable: ${describeStoreError(error)}`, { cause: error });
        throw error;
      });
  }
  return guarded;
}
