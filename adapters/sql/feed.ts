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
import type { Change, ChangeFeed, ChangeNotice } from '../../lib/feed/change.ts';
import { describeNotice } from '../../lib/feed/describe.ts';
import type { DataSource } from '../../lib/ports.ts';
import type { Dialect } from './dialect.ts';
import { createLogFeed } from './logFeed.ts';
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

export interface SqlFeedOptions {
  /** SQLite: how often the data version is polled for other processes' writes (default 100 ms) */
  readonly pollMs?: number;
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

/**
 * The feed of a store: `local` carries this process's writes; others' are read from the log on
 * NOTIFY (Postgres) or the version poll (SQLite), only while someone is subscribed (./logFeed.ts).
 */
export function createSqlFeed(
  knex: Knex,
  d: Dialect,
  ds: DataSource,
  local: ChangeFeed,
  options: SqlFeedOptions = {},
): ChangeFeed & { close(): Promise<void> } {
  const feed = createLogFeed<Change>({
    knex,
    d,
    local,
    channel: 'scoutkit_changes:',
    pollMs: options.pollMs ?? 100,
    readVersion: async () => Number(asRows(await knex('data_version').select('version').where('id', 1))[0]?.['version'] ?? 0),
    changesAbove: async (version) => {
      const out: Change[] = [];
      for (const notice of await noticesAbove(knex, version)) out.push(await describeNotice(ds, notice));
      return out;
    },
  });
  return {
    subscribe: (listener) => feed.subscribe(listener),
    since: (version) => changesSince(knex, ds, version),
    close: () => feed.close(),
  };
}
