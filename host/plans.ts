/**
 * Plans and API keys: what a caller may spend, and the keys file that grants it.
 *
 * A plan is a request rate (`requests` per window of `windowSeconds`; `requestsPerSecond` is the
 * older spelling of a one-second window) plus a credit allowance per calendar period (UTC day or
 * UTC month). Keys are held only as SHA-256 digests once loaded.
 */
import * as crypto from 'node:crypto';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

/** Requests admitted per fixed window: `requests` per `windowSeconds`, or per one second. */
export type PlanRate =
  | { readonly requests: number; readonly windowSeconds: number }
  | { readonly requestsPerSecond: number };

export type Plan = PlanRate & {
  readonly name: string;
  /** credits per period; each request costs its endpoint's cost (default 1) */
  readonly credits: number;
  /** the free plan resets daily, other plans monthly (UTC calendar periods) */
  readonly creditPeriod: 'day' | 'month';
};

/** The longest rate window (a day); credits cover longer periods. */
export const MAX_WINDOW_SECONDS = 86_400;

/** A plan's rate as requests per window. */
export function planWindow(plan: PlanRate): { readonly requests: number; readonly windowSeconds: number } {
  return 'requests' in plan
    ? { requests: plan.requests, windowSeconds: plan.windowSeconds }
    : { requests: plan.requestsPerSecond, windowSeconds: 1 };
}

/** A key with its plan: give the key itself, or only its SHA-256 (hex) to keep it off disk. */
export type KeyGrant =
  | { readonly key: string; readonly plan: Plan; readonly name?: string }
  | { readonly sha256: string; readonly plan: Plan; readonly name?: string };

export const FREE_PLAN: Plan = { name: 'free', requests: 5, windowSeconds: 1, credits: 100_000, creditPeriod: 'day' };

/**
 * Callers without a key, limited per IP: Blockscout's per-instance default, 300 requests per
 * minute, as one 60-second window, so a page's burst of requests is admitted at once.
 */
export const ANONYMOUS_PLAN: Plan = {
  name: 'anonymous',
  requests: 300,
  windowSeconds: 60,
  credits: 100_000,
  creditPeriod: 'day',
};

/** A developer on their own machine (`scoutkit demo`, `npm start`): never throttled in practice. */
export const LOCAL_PLAN: Plan = {
  name: 'local',
  requests: 1_000_000_000,
  windowSeconds: 1,
  credits: 1_000_000_000_000,
  creditPeriod: 'day',
};

/** What a keys file configures. */
export interface KeysConfig {
  readonly keys: readonly KeyGrant[];
  readonly anonymousPlan?: Plan;
  readonly restrictedAddresses?: readonly string[];
  readonly secretKey?: string;
  /** the message of a 429 body */
  readonly rateLimitMessage?: string;
}

// one-shot hashing (Node ≥ 20.12) costs less than a Hash object per request
const oneShot = (crypto as { hash?: typeof crypto.hash }).hash;

export function sha256(text: string): Buffer {
  return oneShot === undefined ? createHash('sha256').update(text, 'utf8').digest() : oneShot('sha256', text, 'buffer');
}

/** The digest of a grant's key (32 bytes). */
export function grantDigest(grant: KeyGrant): Buffer {
  if ('key' in grant) return sha256(grant.key);
  return Buffer.from(grant.sha256, 'hex');
}

export class KeysFileError extends Error {
  override readonly name = 'KeysFileError';
}

/** Read and validate a keys file (format: docs/operations.md "Keys file"). */
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
  const rateLimitMessage =
    root.rateLimitMessage === undefined ? undefined : text(root.rateLimitMessage, 'rateLimitMessage');
  return {
    keys,
    ...(anonymousPlan ? { anonymousPlan } : {}),
    ...(restricted ? { restrictedAddresses: restricted as string[] } : {}),
    ...(secretKey ? { secretKey } : {}),
    ...(rateLimitMessage ? { rateLimitMessage } : {}),
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
  const windowOf = (v: unknown): number => {
    const seconds = positive(v, 'windowSeconds');
    if (seconds > MAX_WINDOW_SECONDS) throw new KeysFileError(`plan ${name}: "windowSeconds" is at most ${MAX_WINDOW_SECONDS}`);
    return seconds;
  };
  const perSecond = p.requestsPerSecond !== undefined;
  if (perSecond === (p.requests !== undefined)) {
    throw new KeysFileError(`plan ${name}: give "requests" (with "windowSeconds", default 1) or "requestsPerSecond"`);
  }
  if (perSecond && p.windowSeconds !== undefined) {
    throw new KeysFileError(`plan ${name}: "windowSeconds" goes with "requests", not "requestsPerSecond"`);
  }
  return {
    name: typeof p.name === 'string' ? p.name : name,
    requests: positive(perSecond ? p.requestsPerSecond : p.requests, perSecond ? 'requestsPerSecond' : 'requests'),
    windowSeconds: perSecond ? 1 : windowOf(p.windowSeconds ?? 1),
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
