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
import type { ContractChange, ContractFeed } from '../../lib/contracts/store.ts';
import type { Dialect } from './dialect.ts';
import { createLogFeed } from './logFeed.ts';
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
 * the log on NOTIFY (Postgres) or the version poll (SQLite), only while someone is subscribed
 * (./logFeed.ts).
 */
export function createSqlContractFeed(knex: Knex, d: Dialect, local: ContractFeed, options: { readonly pollMs?: number } = {}): ContractFeed & { close(): Promise<void> } {
  const feed = createLogFeed<ContractChange>({
    knex,
    d,
    local,
    channel: CHANNEL,
    pollMs: options.pollMs ?? 100,
    readVersion: () => contractVersionOf(knex),
    changesAbove: (version) => changesAbove(knex, version),
  });
  return {
    subscribe: (listener) => feed.subscribe(listener),
    since: (version) => changesSince(knex, version),
    close: () => feed.close(),
  };
}
