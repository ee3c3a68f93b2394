/**
 * The contract store over the SQL store's database (tables of migration 019): verified
 * contracts by code hash, verification jobs. Writes go through the store's writer connection,
 * reads through its readers; any host sharing the database sees the same contracts and jobs.
 *
 *   const store = await openSqlStore(url);
 *   const chain = { store, contracts: createSqlContractStore(store) };
 */
import type { Knex } from 'knex';
import type { Address, Hash, Hex } from '../../lib/domain/records.ts';
import type { JsonObject, JsonValue } from '../../lib/json.ts';
import type { CodeFormat, ContractLanguage, JobState, LicenseType, MatchKind, VerificationJob, VerifiedContract, VerifiedContractInput } from '../../lib/contracts/records.ts';
import type { ContractStore, JobOutcome, NewJob, SaveOutcome, VerifiedFilter, VerifiedPage } from '../../lib/contracts/store.ts';
import type { Row } from './rows.ts';
import { asRows, str, strOrNull } from './rows.ts';

const CONTRACTS = 'verified_contracts';
const JOBS = 'verification_jobs';

const int = (r: Row, c: string): number => {
  const v = r[c];
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new TypeError(`column ${c}: expected a number, got ${typeof v}`);
  return n;
};
const intOrNull = (r: Row, c: string): number | null => (r[c] === null || r[c] === undefined ? null : int(r, c));
const flag = (r: Row, c: string): boolean => {
  const v = r[c];
  return v === true || v === 1 || v === '1';
};
const bit = (b: boolean): number => (b ? 1 : 0);
const json = <T>(r: Row, c: string): T => JSON.parse(str(r, c)) as T;

function toRow(c: VerifiedContractInput, savedAt: number): Record<string, string | number | null> {
  return {
    code_hash: c.codeHash,
    address: c.address,
    name: c.name,
    language: c.language,
    compiler_version: c.compilerVersion,
    optimization_enabled: bit(c.optimizationEnabled),
    optimization_runs: c.optimizationRuns,
    evm_version: c.evmVersion,
    compiler_settings: c.compilerSettings === null ? null : JSON.stringify(c.compilerSettings),
    code_format: c.codeFormat,
    file_path: c.filePath,
    sources: JSON.stringify(c.sources),
    abi: JSON.stringify(c.abi),
    match_kind: c.match,
    creation_match: c.creationMatch,
    has_immutables: bit(c.hasImmutables),
    libraries: JSON.stringify(c.libraries),
    constructor_arguments: c.constructorArguments,
    license_type: c.licenseType,
    verified_at: c.verifiedAt,
    verified_via_sourcify: bit(c.verifiedViaSourcify),
    verified_via_eth_bytecode_db: bit(c.verifiedViaEthBytecodeDb),
    verified_via_verifier_alliance: bit(c.verifiedViaVerifierAlliance),
    is_blueprint: bit(c.isBlueprint),
    certified: bit(c.certified),
    saved_at: savedAt,
  };
}

function fromRow(r: Row): VerifiedContract {
  return {
    id: int(r, 'id'),
    codeHash: str(r, 'code_hash') as Hash,
    address: str(r, 'address') as Address,
    name: str(r, 'name'),
    language: str(r, 'language') as ContractLanguage,
    compilerVersion: str(r, 'compiler_version'),
    optimizationEnabled: flag(r, 'optimization_enabled'),
    optimizationRuns: intOrNull(r, 'optimization_runs'),
    evmVersion: str(r, 'evm_version'),
    compilerSettings: r['compiler_settings'] === null ? null : json<JsonObject>(r, 'compiler_settings'),
    codeFormat: str(r, 'code_format') as CodeFormat,
    filePath: str(r, 'file_path'),
    sources: json<Record<string, string>>(r, 'sources'),
    abi: json<JsonValue[]>(r, 'abi'),
    match: str(r, 'match_kind') as MatchKind,
    creationMatch: strOrNull(r, 'creation_match') as MatchKind | null,
    hasImmutables: flag(r, 'has_immutables'),
    libraries: json<Record<string, Address>>(r, 'libraries'),
    constructorArguments: strOrNull(r, 'constructor_arguments') as Hex | null,
    licenseType: str(r, 'license_type') as LicenseType,
    verifiedAt: int(r, 'verified_at'),
    verifiedViaSourcify: flag(r, 'verified_via_sourcify'),
    verifiedViaEthBytecodeDb: flag(r, 'verified_via_eth_bytecode_db'),
    verifiedViaVerifierAlliance: flag(r, 'verified_via_verifier_alliance'),
    isBlueprint: flag(r, 'is_blueprint'),
    certified: flag(r, 'certified'),
  };
}

function jobOf(r: Row): VerificationJob {
  return {
    uid: str(r, 'uid'),
    address: str(r, 'address') as Address,
    inputHash: str(r, 'input_hash') as Hash,
    state: str(r, 'state') as JobState,
    message: strOrNull(r, 'message'),
    createdAt: int(r, 'created_at'),
    updatedAt: int(r, 'updated_at'),
  };
}

/** a LIKE pattern for a substring, `%` `_` and `\` escaped */
const likeSubstring = (s: string): string => `%${s.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

function filtered(q: Knex.QueryBuilder, filter: VerifiedFilter): Knex.QueryBuilder {
  if (filter.language !== undefined) q.where('language', filter.language);
  if (filter.verifiedSince !== undefined) q.where('verified_at', '>=', filter.verifiedSince);
  if (filter.verifiedUntil !== undefined) q.where('verified_at', '<=', filter.verifiedUntil);
  const needle = filter.q?.trim().toLowerCase() ?? '';
  if (needle !== '') {
    const like = likeSubstring(needle);
    q.where((w) => w.whereRaw("lower(name) LIKE ? ESCAPE '\\'", [like]).orWhereRaw("address LIKE ? ESCAPE '\\'", [like]));
  }
  return q;
}

/** A unique-key violation (SQLite SQLITE_CONSTRAINT, Postgres 23505): another writer inserted first. */
function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export interface SqlContractStoreOptions {
  /** the clock of `saved_at` (the data version), unix ms; default Date.now */
  readonly now?: () => number;
}

/** The contract store over a SQL store's connections (its writer `knex`, its `reader` pool). */
export function createSqlContractStore(db: { readonly knex: Knex; readonly reader?: Knex }, options: SqlContractStoreOptions = {}): ContractStore {
  const writer = db.knex;
  const reader = db.reader ?? db.knex;
  const now = options.now ?? Date.now;
  let writes = 0;

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

  return {
    async getVerified(codeHashes) {
      const wanted = [...new Set(codeHashes.map((h) => h.toLowerCase()))];
      if (wanted.length === 0) return [];
      const out: VerifiedContract[] = [];
      // bounded IN lists (SQLite's variable limit)
      for (let i = 0; i < wanted.length; i += 500) {
        for (const row of asRows(await reader(CONTRACTS).whereIn('code_hash', wanted.slice(i, i + 500)))) out.push(fromRow(row));
      }
      return out;
    },

    async saveVerified(input): Promise<SaveOutcome> {
      const savedAt = now();
      let saved = false;
      try {
        await writer(CONTRACTS).insert(toRow(input, savedAt));
        saved = true;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
      if (!saved && input.match === 'full') {
        // a full match replaces a partial one; its id and first address stay
        const { address: _first, code_hash: _key, ...rest } = toRow(input, savedAt);
        const changed = await writer(CONTRACTS).where({ code_hash: input.codeHash, match_kind: 'partial' }).update(rest);
        saved = Number(changed) > 0;
      }
      if (saved) writes++;
      const contract = await byHash(writer, input.codeHash);
      if (contract === null) throw new Error(`verified contract ${input.codeHash} vanished after saving`);
      return { saved, contract };
    },

    async listVerified(filter: VerifiedFilter, page: VerifiedPage) {
      const q = filtered(reader(CONTRACTS), filter);
      if (page.afterId !== null) q.where('id', page.order === 'desc' ? '<' : '>', page.afterId);
      return asRows(await q.orderBy('id', page.order).limit(page.limit)).map(fromRow);
    },

    async countVerified(filter) {
      const row = asRows(await filtered(reader(CONTRACTS), filter).count({ n: '*' }))[0];
      return row === undefined ? 0 : int(row, 'n');
    },

    async createJob(job: NewJob): Promise<JobOutcome> {
      const existing = await latestJob(writer, job.address, job.inputHash);
      if (existing !== null) return { created: false, job: existing };
      const row = {
        uid: job.uid,
        address: job.address.toLowerCase(),
        input_hash: job.inputHash.toLowerCase(),
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
    },

    async getJob(uid) {
      // the writer: a job a client polls right after submitting is read where it was written
      const row = asRows(await writer(JOBS).where('uid', uid))[0];
      return row === undefined ? null : jobOf(row);
    },

    findJob: (address, inputHash) => latestJob(writer, address, inputHash),

    async updateJob(uid, update) {
      const changed = await writer(JOBS).where('uid', uid).update({ state: update.state, message: update.message, updated_at: update.now });
      return Number(changed) > 0;
    },

    async getDataVersion() {
      const row = asRows(await reader(CONTRACTS).select(reader.raw('count(*) as n'), reader.raw('max(saved_at) as s')))[0];
      return row === undefined ? 'c0' : `c${String(row['n'])}.${String(row['s'] ?? 0)}`;
    },
    dataVersionSignal: { shared: true, local: () => writes },
  };
}
