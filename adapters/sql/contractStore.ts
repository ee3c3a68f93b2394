/**
 * The contract store over a SQL store's database: verified contracts by code hash, verification
 * jobs, and their change feed (./contractFeed.ts). Any host sharing the database sees the same
 * contracts and jobs, and hears of each change.
 *
 * Writes go through the store's writer connection, each with its change logged in the same
 * transaction. Reads go through the store's readers, or, on a store with read replicas, to a
 * replica whose probed contract version is at least the highest this object has seen — its own
 * writes, its feed's changes, the versions it read — else to the primary: so a contract this
 * host verified never reads as unverified here (read-your-writes), and an answer is never cached
 * under a version newer than the copy it was read from.
 *
 *   const store = await openSqlStore(url);
 *   const contracts = createSqlContractStore(store);
 */
import type { Knex } from 'knex';
import type { Address, Hash } from '../../lib/domain/records.ts';
import type { VerificationJob, VerifiedContract } from '../../lib/contracts/records.ts';
import type { ContractChange, ContractStore, JobOutcome, NewJob, SaveOutcome, VerifiedFilter, VerifiedPage } from '../../lib/contracts/store.ts';
import { createLocalContractFeed } from '../../lib/feed/contracts.ts';
import { contractVersionOf, createSqlContractFeed, logContractChange } from './contractFeed.ts';
import type { ContractChangeBody } from './contractFeed.ts';
import { filtered, fromRow, int, isUniqueViolation, jobOf, toRow } from './contracts.ts';
import { dialectOf } from './dialect.ts';
import { asRows } from './rows.ts';

const CONTRACTS = 'verified_contracts';
const JOBS = 'verification_jobs';

/** The read replicas the contract reads may go to (a ReplicaSet, adapters/sql/replicas.ts). */
export interface ContractReadCopies {
  /** a replica in use whose probed contract version is at least `minVersion`; null: read the primary */
  pickForContracts(minVersion: number): Knex | null;
}

export interface SqlContractStoreOptions {
  /** the clock of `saved_at`, unix ms; default Date.now */
  readonly now?: () => number;
  /** SQLite: how often the feed polls for other processes' changes while subscribed (default 100 ms) */
  readonly pollMs?: number;
}

export type SqlContractStore = ContractStore & {
  readonly feed: NonNullable<ContractStore['feed']>;
  /** stop the feed (release its LISTEN connection; done by the SQL store's close when given it); the connections are the SQL store's */
  close(): Promise<void>;
};

const byHash = async (k: Knex, codeHash: Hash): Promise<VerifiedContract | null> => {
  const row = asRows(await k(CONTRACTS).where('code_hash', codeHash))[0];
  return row === undefined ? null : fromRow(row);
};

const latestJob = async (k: Knex, address: Address, inputHash: Hash): Promise<VerificationJob | null> => {
  const row = asRows(
    await k(JOBS).where({ address: address.toLowerCase(), input_hash: inputHash.toLowerCase() }).orderBy('created_at', 'desc').orderBy('uid', 'desc').limit(1),
  )[0];
  return row === undefined ? null : jobOf(row);
};

/** ContractStore.createJob on the writer: a pending job, unless one for the same address and input exists. */
async function createJob(writer: Knex, job: NewJob): Promise<JobOutcome> {
  const existing = await latestJob(writer, job.address, job.inputHash);
  if (existing !== null) return { created: false, job: existing };
  const row = {
    uid: job.uid,
    address: job.address.toLowerCase(),
    input_hash: job.inputHash.toLowerCase(),
    input_kind: job.inputKind ?? null,
    state: 'pending',
    message: null,
    created_at: job.now,
    updated_at: job.now,
  };
  try {
    await writer(JOBS).insert(row);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const same = asRows(await writer(JOBS).where('uid', job.uid))[0];
    if (same !== undefined) return { created: false, job: jobOf(same) };
    throw error;
  }
  return { created: true, job: jobOf(row) };
}

/** The contract store over a SQL store's connections (its writer `knex`, its `reader` pool, its `replicas`). */
export function createSqlContractStore(
  db: { readonly knex: Knex; readonly reader?: Knex; readonly replicas?: ContractReadCopies; onClose?(fn: () => Promise<void>): void },
  options: SqlContractStoreOptions = {},
): SqlContractStore {
  const writer = db.knex;
  const primaryReader = db.reader ?? db.knex;
  const d = dialectOf(writer);
  const now = options.now ?? Date.now;
  const local = createLocalContractFeed();
  const feed = createSqlContractFeed(writer, d, local, options.pollMs === undefined ? {} : { pollMs: options.pollMs });
  db.onClose?.(() => feed.close());
  let writes = 0;
  /** the highest contract version this object has seen: reads go to a copy holding it */
  let floor = 0;
  const saw = (version: number): void => {
    if (version > floor) floor = version;
  };
  const reader = (): Knex => db.replicas?.pickForContracts(floor) ?? primaryReader;

  /** run `write` and log its change in one transaction; announce it after the commit (null: nothing changed) */
  const logged = async (write: (trx: Knex.Transaction) => Promise<ContractChangeBody | null>): Promise<ContractChange | null> => {
    const change = await writer.transaction(async (trx) => {
      const body = await write(trx);
      return body === null ? null : logContractChange(trx, d, body);
    });
    if (change !== null) {
      saw(change.version);
      local.emit(change);
    }
    return change;
  };

  const insertVerified = async (input: Parameters<ContractStore['saveVerified']>[0], savedAt: number): Promise<boolean> => {
    try {
      await logged(async (trx) => {
        await trx(CONTRACTS).insert(toRow(input, savedAt));
        return { kind: 'verified', codeHash: input.codeHash, address: input.address };
      });
      return true;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      return false;
    }
  };

  return {
    // the feed's changes (other processes') raise the floor too, while anyone listens
    feed: {
      subscribe: (listener) =>
        feed.subscribe((change) => {
          saw(change.version);
          listener(change);
        }),
      since: (version) => feed.since(version),
    },
    close: () => feed.close(),

    async getVerified(codeHashes) {
      const wanted = [...new Set(codeHashes.map((h) => h.toLowerCase()))];
      if (wanted.length === 0) return [];
      const out: VerifiedContract[] = [];
      const k = reader();
      // bounded IN lists (SQLite's variable limit)
      for (let i = 0; i < wanted.length; i += 500) {
        for (const row of asRows(await k(CONTRACTS).whereIn('code_hash', wanted.slice(i, i + 500)))) out.push(fromRow(row));
      }
      return out;
    },

    async saveVerified(input): Promise<SaveOutcome> {
      const savedAt = now();
      let saved = await insertVerified(input, savedAt);
      if (!saved && input.match === 'full') {
        // a full match replaces a partial one; its id and first address stay
        const { address: _first, code_hash: _key, ...rest } = toRow(input, savedAt);
        const change = await logged(async (trx) => {
          const changed = await trx(CONTRACTS).where({ code_hash: input.codeHash, match_kind: 'partial' }).update(rest);
          if (Number(changed) === 0) return null;
          const first = asRows(await trx(CONTRACTS).select('address').where('code_hash', input.codeHash))[0];
          return { kind: 'verified', codeHash: input.codeHash, address: String(first?.['address'] ?? input.address) as Address };
        });
        saved = change !== null;
      }
      if (saved) writes++;
      const contract = await byHash(writer, input.codeHash);
      if (contract === null) throw new Error(`verified contract ${input.codeHash} vanished after saving`);
      return { saved, contract };
    },

    async listVerified(filter: VerifiedFilter, page: VerifiedPage) {
      const k = reader();
      const q = filtered(k(CONTRACTS), filter);
      if (page.afterId !== null) q.where('id', page.order === 'desc' ? '<' : '>', page.afterId);
      return asRows(await q.orderBy('id', page.order).limit(page.limit)).map(fromRow);
    },

    async countVerified(filter) {
      const k = reader();
      const row = asRows(await filtered(k(CONTRACTS), filter).count({ n: '*' }))[0];
      return row === undefined ? 0 : int(row, 'n');
    },

    createJob: (job) => createJob(writer, job),

    async getJob(uid) {
      // the writer: a job a client polls right after submitting is read where it was written
      const row = asRows(await writer(JOBS).where('uid', uid))[0];
      return row === undefined ? null : jobOf(row);
    },

    findJob: (address, inputHash) => latestJob(writer, address, inputHash),

    async updateJob(uid, update) {
      const change = await logged(async (trx) => {
        const changed = await trx(JOBS).where('uid', uid).update({ state: update.state, message: update.message, updated_at: update.now });
        if (Number(changed) === 0) return null;
        const row = asRows(await trx(JOBS).where('uid', uid))[0];
        if (row === undefined) return null;
        const { address, state, message, inputKind } = jobOf(row);
        return { kind: 'job', job: { uid, address, state, message, inputKind } };
      });
      return change !== null;
    },

    async getDataVersion() {
      const version = await contractVersionOf(reader());
      saw(version);
      return `c${version}`;
    },
    dataVersionSignal: { shared: true, local: () => writes },
  };
}
