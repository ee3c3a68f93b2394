/**
 * Plans and API keys: what a caller may spend, and the keys file that grants it.
 *
 * A plan is a request rate (per second) plus a credit allowance per calendar period (UTC day or
 * UTC month). Keys are held only as SHA-256 digests once loaded.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

export interface Plan {
  readonly name: string;
  /** requests admitted per one-second window */
  readonly requestsPerSecond: number;
  /** credits per period; each request costs its endpoint's cost (default 1) */
  readonly credits: number;
  /** the free plan resets daily, other plans monthly (UTC calendar periods) */
  readonly creditPeriod: 'day' | 'month';
}

/** A key with its plan: give the key itself, or only its SHA-256 (hex) to keep it off disk. */
export type KeyGrant =
  | { readonly key: string; readonly plan: Plan; readonly name?: string }
  | { readonly sha256: string; readonly plan: Plan; readonly name?: string };

export const FREE_PLAN: Plan = { name: 'free', requestsPerSecond: 5, credits: 100_000, creditPeriod: 'day' };

/** Callers without a key, limited per IP (Blockscout's default is 300 per minute). */
export const ANONYMOUS_PLAN: Plan = {
  name: 'anonymous',
  requestsPerSecond: 5,
  credits: 100_000,
  creditPeriod: 'day',
};

/** What a keys file configures. */
export interface KeysConfig {
  readonly keys: readonly KeyGrant[];
  readonly anonymousPlan?: Plan;
  readonly restrictedAddresses?: readonly string[];
  readonly secretKey?: string;
}

export function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** The digest of a grant's key (32 bytes). */
export function grantDigest(grant: KeyGrant): Buffer {
  if ('key' in grant) return sha256(grant.key);
  return Buffer.from(grant.sha256, 'hex');
}

export class KeysFileError extends Error {
  override readonly name = 'KeysFileError';
}

/** Read and validate a keys file (format: README "Keys file"). */
export async function loadKeysFile(path: string): Promise<KeysConfig> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (e) {
    throw new KeysFileError(`cannot read keys file ${path}: ${(e as Error).message}`);
  }
  return parseKeysConfig(json);
}

/** Validate the JSON of a keys file; plans referenced by name are resolved. */
export function parseKeysConfig(json: unknown): KeysConfig {
  const root = record(json, 'keys file');
  const plans = new Map<string, Plan>([['free', FREE_PLAN]]);
  for (const [name, value] of Object.entries(record(root.plans ?? {}, 'plans'))) {
    plans.set(name, parsePlan(name, value));
  }
  const planOf = (ref: unknown, where: string): Plan => {
    if (typeof ref === 'string') {
      const plan = plans.get(ref);
      if (!plan) throw new KeysFileError(`${where}: unknown plan "${ref}"`);
      return plan;
    }
    return parsePlan(`${where}.plan`, ref);
  };
  if (!Array.isArray(root.keys)) throw new KeysFileError('keys file: "keys" must be an array');
  const keys = root.keys.map((entry: unknown, i): KeyGrant => {
    const where = `keys[${i}]`;
    const e = record(entry, where);
    const plan = planOf(e.plan ?? 'free', where);
    const name = e.name === undefined ? undefined : text(e.name, `${where}.name`);
    if (typeof e.key === 'string' && e.key.trim() !== '') return { key: e.key, plan, ...(name ? { name } : {}) };
    if (typeof e.sha256 === 'string' && /^[0-9a-fA-F]{64}$/.test(e.sha256)) {
      return { sha256: e.sha256.toLowerCase(), plan, ...(name ? { name } : {}) };
    }
    throw new KeysFileError(`${where}: needs "key" (non-empty) or "sha256" (64 hex digits)`);
  });
  const anonymousPlan = root.anonymous === undefined ? undefined : planOf(root.anonymous, 'anonymous');
  const restricted = root.restrictedAddresses;
  if (restricted !== undefined && !(Array.isArray(restricted) && restricted.every((a) => typeof a === 'string'))) {
    throw new KeysFileError('keys file: "restrictedAddresses" must be an array of strings');
  }
  const secretKey = root.secretKey === undefined ? undefined : text(root.secretKey, 'secretKey');
  return {
    keys,
    ...(anonymousPlan ? { anonymousPlan } : {}),
    ...(restricted ? { restrictedAddresses: restricted as string[] } : {}),
    ...(secretKey ? { secretKey } : {}),
  };
}

function parsePlan(name: string, value: unknown): Plan {
  const p = record(value, `plan ${name}`);
  const positive = (v: unknown, field: string): number => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) {
      throw new KeysFileError(`plan ${name}: "${field}" must be a positive integer`);
    }
    return v;
  };
  const period = p.creditPeriod ?? (name === 'free' ? 'day' : 'month');
  if (period !== 'day' && period !== 'month') throw new KeysFileError(`plan ${name}: "creditPeriod" is day or month`);
  return {
    name: typeof p.name === 'string' ? p.name : name,
    requestsPerSecond: positive(p.requestsPerSecond, 'requestsPerSecond'),
    credits: positive(p.credits, 'credits'),
    creditPeriod: period,
  };
}

function record(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new KeysFileError(`${where} must be a JSON object`);
  }
  return value as Record<string, unknown>;
}

function text(value: unknown, where: string): string {
  if (typeof value !== 'string' || value === '') throw new KeysFileError(`${where} must be a non-empty string`);
  return value;
}
