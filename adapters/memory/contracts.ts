/**
 * The reference contract store: verified contracts by code hash and verification jobs in maps.
 * Records handed in are copied and frozen; its version is a local counter (no other writer).
 */
import type { Address, Hash } from '../../lib/domain/records.ts';
import type { JobState, VerificationJob, VerifiedContract, VerifiedContractInput } from '../../lib/contracts/records.ts';
import type { ContractStore, JobOutcome, NewJob, SaveOutcome, VerifiedFilter, VerifiedPage } from '../../lib/contracts/store.ts';
import { createLocalContractFeed } from '../../lib/feed/contracts.ts';

const freeze = <T>(value: T): T => Object.freeze(structuredClone(value));

/** Whether a contract passes a filter (the SQL adapter's WHERE, in code). */
export function keepsVerified(c: VerifiedContract, filter: VerifiedFilter): boolean {
  if (filter.language !== undefined && c.language !== filter.language) return false;
  if (filter.verifiedSince !== undefined && c.verifiedAt < filter.verifiedSince) return false;
  if (filter.verifiedUntil !== undefined && c.verifiedAt > filter.verifiedUntil) return false;
  const q = filter.q?.trim().toLowerCase() ?? '';
  return q === '' || c.name.toLowerCase().includes(q) || c.address.includes(q);
}

export function createMemoryContractStore(): ContractStore {
  const byHash = new Map<Hash, VerifiedContract>();
  const jobs = new Map<string, VerificationJob>();
  let nextId = 1;
  let writes = 0;
  // the change counter: saves and job updates, as the SQL store's contract_version
  let changes = 0;
  const feed = createLocalContractFeed();

  return {
    feed,
    async getVerified(codeHashes) {
      const out: VerifiedContract[] = [];
      for (const h of new Set(codeHashes.map((x) => x.toLowerCase() as Hash))) {
        const c = byHash.get(h);
        if (c !== undefined) out.push(c);
      }
      return out;
    },
    async saveVerified(input: VerifiedContractInput): Promise<SaveOutcome> {
      const stored = byHash.get(input.codeHash);
      if (stored !== undefined && !(stored.match === 'partial' && input.match === 'full')) return { saved: false, contract: stored };
      const contract = freeze<VerifiedContract>(
        stored === undefined ? { ...input, id: nextId++ } : { ...input, id: stored.id, address: stored.address },
      );
      byHash.set(input.codeHash, contract);
      writes++;
      feed.emit({ version: ++changes, kind: 'verified', codeHash: contract.codeHash, address: contract.address });
      return { saved: true, contract };
    },
    async listVerified(filter: VerifiedFilter, page: VerifiedPage) {
      const desc = page.order === 'desc';
      return [...byHash.values()]
        .filter((c) => keepsVerified(c, filter))
        .filter((c) => page.afterId === null || (desc ? c.id < page.afterId : c.id > page.afterId))
        .sort((a, b) => (desc ? b.id - a.id : a.id - b.id))
        .slice(0, page.limit);
    },
    async countVerified(filter) {
      let n = 0;
      for (const c of byHash.values()) if (keepsVerified(c, filter)) n++;
      return n;
    },
    async createJob(job: NewJob): Promise<JobOutcome> {
      const existing = findLatest(job.address, job.inputHash);
      if (existing !== null) return { created: false, job: existing };
      const created = freeze<VerificationJob>({
        uid: job.uid,
        address: job.address.toLowerCase() as Address,
        inputHash: job.inputHash.toLowerCase() as Hash,
        inputKind: job.inputKind ?? null,
        state: 'pending',
        message: null,
        createdAt: job.now,
        updatedAt: job.now,
      });
      if (jobs.has(created.uid)) return { created: false, job: jobs.get(created.uid) as VerificationJob };
      jobs.set(created.uid, created);
      return { created: true, job: created };
    },
    async getJob(uid) {
      return jobs.get(uid) ?? null;
    },
    async findJob(address, inputHash) {
      return findLatest(address, inputHash);
    },
    async updateJob(uid, update: { readonly state: JobState; readonly message: string | null; readonly now: number }) {
      const job = jobs.get(uid);
      if (job === undefined) return false;
      const updated = freeze({ ...job, state: update.state, message: update.message, updatedAt: update.now });
      jobs.set(uid, updated);
      const { address, state, message, inputKind } = updated;
      feed.emit({ version: ++changes, kind: 'job', job: { uid, address, state, message, inputKind } });
      return true;
    },
    dataVersionSignal: { shared: false, local: () => writes },
    async getDataVersion() {
      return `c${writes}`;
    },
  };

  function findLatest(address: Address, inputHash: Hash): VerificationJob | null {
    const a = address.toLowerCase();
    const h = inputHash.toLowerCase();
    let best: VerificationJob | null = null;
    for (const j of jobs.values()) if (j.address === a && j.inputHash === h && (best === null || j.createdAt >= best.createdAt)) best = j;
    return best;
  }
}
