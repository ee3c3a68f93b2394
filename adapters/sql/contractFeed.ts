/**
 * The SQL contract store's change feed (as the chain's, ./feed.ts, on tables of its own:
 * migration 025).
 *
 * - Each write that changes something bumps `contract_version` (its row locked until the commit,
 *   so versions are consecutive and in commit order whichever process writes), logs the change in
 *   `contract_changes` and, on Postgres, `pg_notify`s its version in the same transaction.
 * - In process, a write is announced synchronously after its commit (the local feed).
 * - Across processes a listener wakes on NOTIFY (Postgres, one pooled connection LISTENing) or on
 *   the version poll (SQLite, every `pollMs`), and reads the log above the last version it
 *   delivered: each change once, in version order, nothing lost over a reconnect.
 */
import type { Knex } from 'knex';
import type { Address, Hash } from '../../lib/domain/records.ts';
import type { JobInputKind, JobState } from '../../lib/contracts/records.ts';
import type { ContractChange, ContractChangeListener, ContractFeed } from '../../lib/contracts/store.ts';
import type { Dialect } from './dialect.ts';
import { asRows } from './rows.ts';

/** rows kept in contract_changes: a listener further behind starts afresh (since → null) */
export const CONTRACT_CHANGES_KEEP = 10_000;

/** the NOTIFY channel of the store's schema */
const CHANNEL = 'scoutkit_contracts:';

/** a change as a write describes it, before it has a version */
export type ContractChangeBody = ContractChange extends infer C ? (C extends ContractChange ? Omit<C, 'version'> : never) : never;

/** The contract store's change counter (0 before any change), read on `k` (the primary, or a replica). */
export async function contractVersionOf(k: Knex): Promise<number> {
  const row = asRows(await k('contract_version').select('version').where('id', 1))[0];
  return Number(row?.['version'] ?? 0);
}

/** Inside a write transaction: bump the counter, log the change, notify (Postgres); the change with its version. */
export async function logContractChange(trx: Knex.Transaction, d: Dialect, body: ContractChangeBody): Promise<ContractChange> {
  await trx('contract_version').where('id', 1).increment('version', 1);
  const version = await contractVersionOf(trx);
  await trx('contract_changes').insert(
    body.kind === 'verified'
      ? { version, kind: 'verified', address: body.address, code_hash: body.codeHash }
      : { version, kind: 'job', address: body.job.address, job_uid: body.job.uid, job_state: body.job.state, job_message: body.job.message, input_kind: body.job.inputKind },
  );
  if (version % 100 === 0) await trx('contract_changes').where('version', '<=', version - CONTRACT_CHANGES_KEEP).delete();
  if (d.notifies) await trx.raw(`select pg_notify('${CHANNEL}' || current_schema(), ?)`, [String(version)]);
  return { version, ...body } as ContractChange;
}

const strOr = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The logged changes above `version`, oldest first. */
async function changesAbove(k: Knex, version: number): Promise<ContractChange[]> {
  const rows = asRows(await k('contract_changes').where('version', '>', version).orderBy('version', 'asc'));
  return rows.map((r): ContractChange => {
    const v = Number(r['version']);
    const address = String(r['address']) as Address;
    if (r['kind'] === 'verified') return { version: v, kind: 'verified', codeHash: String(r['code_hash']) as Hash, address };
    return {
      version: v,
      kind: 'job',
      job: { uid: String(r['job_uid']), address, state: String(r['job_state']) as JobState, message: strOr(r['job_message']), inputKind: strOr(r['input_kind']) as JobInputKind | null },
    };
  });
}

/** the part of a pg client the listener uses */
interface PgConnection {
  query(sql: string): Promise<unknown>;
  on(event: 'notification', listener: () => void): void;
  on(event: 'error' | 'end', listener: () => void): void;
  removeAllListeners(event: string): void;
}

interface FeedState {
  readonly knex: Knex;
  readonly d: Dialect;
  readonly local: ContractFeed;
  readonly pollMs: number;
  readonly listeners: Set<ContractChangeListener>;
  /** the last version delivered; null while stopped or starting */
  last: number | null;
  /** this process's writes made while the feed starts */
  early: ContractChange[] | null;
  chain: Promise<void>;
  starting: Promise<void>;
  stopLocal: (() => void) | null;
  timer: ReturnType<typeof setInterval> | null;
  conn: PgConnection | null;
  closed: boolean;
}

function deliver(s: FeedState, change: ContractChange): void {
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
      for (const change of await changesAbove(s.knex, s.last)) if (s.last !== null && change.version > s.last) deliver(s, change);
    } catch {
      // the database is away: the next notification or poll tries again
    }
  });
  return s.chain;
}

function onLocal(s: FeedState, change: ContractChange): void {
  if (s.early !== null) {
    s.early.push(change);
    return;
  }
  // the next version at once; after a gap (another process wrote in between), through the log
  if (s.last !== null && change.version === s.last + 1) deliver(s, change);
  else if (s.last === null || change.version > s.last) void catchUp(s);
}

async function listenPg(s: FeedState): Promise<void> {
  if (s.closed || s.listeners.size === 0) return;
  try {
    const c = (await s.knex.client.acquireConnection()) as PgConnection;
    const result = (await c.query('select current_schema() as s')) as { rows: { s?: string }[] };
    const channel = `${CHANNEL}${result.rows[0]?.s ?? 'public'}`;
    await c.query(`LISTEN "${channel.replace(/"/g, '""')}"`);
    s.conn = c;
    c.on('notification', () => void catchUp(s));
    const lost = (): void => {
      if (s.conn !== c) return;
      s.conn = null;
      c.removeAllListeners('notification');
      void s.knex.client.releaseConnection(c).catch(() => undefined);
      setTimeout(() => void listenPg(s).then(() => catchUp(s)), 1000).unref();
    };
    c.on('error', lost);
    c.on('end', lost);
    void catchUp(s);
  } catch {
    setTimeout(() => void listenPg(s), 1000).unref();
  }
}

function pollVersion(s: FeedState): void {
  let seen = s.last;
  s.timer = setInterval(() => {
    void contractVersionOf(s.knex)
      .then((v) => {
        if (v !== seen) {
          seen = v;
          void catchUp(s);
        }
      })
      .catch(() => undefined);
  }, s.pollMs);
  s.timer.unref();
}

async function startFeed(s: FeedState): Promise<void> {
  let buffered: ContractChange[] = [];
  try {
    const current = await contractVersionOf(s.knex);
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
    for (const event of ['notification', 'error', 'end']) c.removeAllListeners(event);
    await c.query('UNLISTEN *').catch(() => undefined);
    await s.knex.client.releaseConnection(c);
  }
}

function subscribeFeed(s: FeedState, listener: ContractChangeListener): () => void {
  s.listeners.add(listener);
  if (s.listeners.size === 1) {
    s.early = [];
    s.stopLocal = s.local.subscribe((change) => onLocal(s, change));
    s.starting = s.starting.then(() => startFeed(s)).catch(() => undefined);
  }
  return () => {
    if (!s.listeners.delete(listener) || s.listeners.size > 0) return;
    s.stopLocal?.();
    s.stopLocal = null;
    s.starting = s.starting.then(() => stopFeed(s)).catch(() => undefined);
  };
}

/** the changes above a version, from the log; null when the log no longer reaches back to it */
async function changesSince(knex: Knex, version: number): Promise<ContractChange[] | null> {
  const changes = await changesAbove(knex, version);
  const first = changes[0];
  if (first !== undefined && first.version > version + 1) return null;
  if (first === undefined && (await contractVersionOf(knex)) > version) return null;
  return changes;
}

/**
 * The feed of a SQL contract store: `local` carries this process's writes; others' are read from
 * the log on NOTIFY (Postgres) or the version poll (SQLite), only while someone is subscribed.
 */
export function createSqlContractFeed(knex: Knex, d: Dialect, local: ContractFeed, options: { readonly pollMs?: number } = {}): ContractFeed & { close(): Promise<void> } {
  const s: FeedState = {
    knex,
    d,
    local,
    pollMs: options.pollMs ?? 100,
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
    since: (version) => changesSince(knex, version),
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
