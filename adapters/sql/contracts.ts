/**
 * The rows of the contract store's tables (migrations 019 and 025): verified contracts and
 * verification jobs to and from their columns, the list filter, a unique-key violation.
 * The store over them: ./contractStore.ts.
 */
import type { Knex } from 'knex';
import type { Address, Hash, Hex } from '../../lib/domain/records.ts';
import type { JsonObject, JsonValue } from '../../lib/json.ts';
import type { CodeFormat, ContractLanguage, JobInputKind, JobState, LicenseType, MatchKind, VerificationJob, VerifiedContract, VerifiedContractInput } from '../../lib/contracts/records.ts';
import type { VerifiedFilter } from '../../lib/contracts/store.ts';
import type { Row } from './rows.ts';
import { asRows, str, strOrNull } from './rows.ts';

const CONTRACTS = 'verified_contracts';
const JOBS = 'verification_jobs';

export const int = (r: Row, c: string): number => {
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

export function toRow(c: VerifiedContractInput, savedAt: number): Record<string, string | number | null> {
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

export function fromRow(r: Row): VerifiedContract {
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

export function jobOf(r: Row): VerificationJob {
  return {
    uid: str(r, 'uid'),
    address: str(r, 'address') as Address,
    inputHash: str(r, 'input_hash') as Hash,
    inputKind: strOrNull(r, 'input_kind') as JobInputKind | null,
    state: str(r, 'state') as JobState,
    message: strOrNull(r, 'message'),
    createdAt: int(r, 'created_at'),
    updatedAt: int(r, 'updated_at'),
  };
}

/** a LIKE pattern for a substring, `%` `_` and `\` escaped */
const likeSubstring = (s: string): string => `%${s.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

export function filtered(q: Knex.QueryBuilder, filter: VerifiedFilter): Knex.QueryBuilder {
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
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

