/**
 * The contract store port: verified contracts keyed by the runtime code's hash, and verification
 * jobs. It lives beside the chain's DataSource (ChainConfig.contracts) and outside block
 * rollback: a reorg never removes a verification. Implementations: adapters/memory (reference)
 * and adapters/sql (SQLite, Postgres; the tables `verified_contracts`, `verification_jobs`).
 */
import type { Address, Hash } from '../domain/records.ts';
import type { ContractLanguage, JobInputKind, JobState, VerificationJob, VerifiedContract, VerifiedContractInput } from '../contracts/records.ts';
import type { DataVersionSignal } from './dataSource.ts';
import type { Order } from './page.ts';

/** Which verified contracts a list or count keeps. */
export interface VerifiedFilter {
  readonly language?: ContractLanguage;
  /** a case-insensitive substring of the name, or of the first verified address's lower-case hex */
  readonly q?: string;
  /** verified at or after (unix ms) */
  readonly verifiedSince?: number;
  /** verified at or before (unix ms) */
  readonly verifiedUntil?: number;
}

/** A page of the verified list: by `id`, after `afterId` in `order` (desc: newest first). */
export interface VerifiedPage {
  readonly afterId: number | null;
  readonly limit: number;
  readonly order: Order;
}

/** What saving did: saved (a new contract, or a full match over a partial one), or kept the one stored. */
export interface SaveOutcome {
  readonly saved: boolean;
  /** the contract the store now holds for the code hash */
  readonly contract: VerifiedContract;
}

/** A new job: the store gives it the state `pending`. */
export interface NewJob {
  readonly uid: string;
  readonly address: Address;
  readonly inputHash: Hash;
  /** what was submitted (every submit path names it; absent: stored as null, as jobs from before kinds read) */
  readonly inputKind?: JobInputKind;
  /** unix ms */
  readonly now: number;
}

/** What creating a job did: created it, or found one for the same address and input (which then runs once). */
export interface JobOutcome {
  readonly created: boolean;
  readonly job: VerificationJob;
}

/**
 * What one write to a contract store changed: a verified contract saved (new, or a full match
 * over a partial one), or a job's state set (settled, or re-opened). `version` is the store's
 * change counter after the write: consecutive, in commit order, shared by every process on the
 * same database.
 */
export type ContractChange =
  | { readonly version: number; readonly kind: 'verified'; readonly codeHash: Hash; readonly address: Address }
  | { readonly version: number; readonly kind: 'job'; readonly job: Pick<VerificationJob, 'uid' | 'address' | 'state' | 'message' | 'inputKind'> };

export type ContractChangeListener = (change: ContractChange) => void;

/**
 * A contract store's change feed (as the chain's, lib/ports/feed.ts): this process's writes
 * synchronously after their commit, other processes' on the same database as soon as they are
 * known (Postgres NOTIFY, SQLite's poll), each once, in version order.
 */
export interface ContractFeed {
  /** every change from now on; returns the unsubscribe function */
  subscribe(listener: ContractChangeListener): () => void;
  /** the changes after `version`, oldest first; null: too old to tell */
  since(version: number): Promise<readonly ContractChange[] | null>;
}

export interface ContractStore {
  /** The verified contracts of these code hashes (any order; unknown ones left out): one query. */
  getVerified(codeHashes: readonly Hash[]): Promise<readonly VerifiedContract[]>;
  /**
   * Save a verification. A code hash not stored yet is inserted; a full match replaces a
   * partial one (keeping its id and first address); anything else keeps what is stored.
   */
  saveVerified(contract: VerifiedContractInput): Promise<SaveOutcome>;
  /** Verified contracts by id, filtered. */
  listVerified(filter: VerifiedFilter, page: VerifiedPage): Promise<readonly VerifiedContract[]>;
  countVerified(filter: VerifiedFilter): Promise<number>;

  /**
   * Create a pending job, unless a job for the same address and input exists (any state): then
   * that one is answered and nothing is created.
   */
  createJob(job: NewJob): Promise<JobOutcome>;
  getJob(uid: string): Promise<VerificationJob | null>;
  /** The latest job for an address and input, or null. */
  findJob(address: Address, inputHash: Hash): Promise<VerificationJob | null>;
  /** Settle (or re-open) a job; false when there is no such uid. */
  updateJob(uid: string, update: { readonly state: JobState; readonly message: string | null; readonly now: number }): Promise<boolean>;

  /** A token that changes whenever a verified contract is saved (also by another process): cached answers key on it. */
  getDataVersion?(): Promise<string>;
  /** What this object knows of its version without a query (see DataVersionSignal). */
  readonly dataVersionSignal?: DataVersionSignal;
  /** What each write changed, this process's and (on a database) every other's. */
  readonly feed?: ContractFeed;
}
