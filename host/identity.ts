/**
 * Identity: who is calling, and whether they may.
 *
 * Key precedence (first present wins; whitespace-only counts as absent):
 *   1. `Authorization: Bearer <key>`   2. `x-api-key: <key>`   3. `?apikey=<key>` (or `?apiKey=<key>`)
 * Keys are compared as SHA-256 digests with `timingSafeEqual`, against every grant (no early
 * exit). A key is never logged, echoed or used as a limiter id (the digest is). A key that has
 * matched once is remembered in a Map from the key to its grant (one entry per grant at most),
 * so a valid key's later requests cost no digest; the lookup of an unknown key goes by V8's
 * string hash (seeded per process) and reveals nothing of the keys it holds.
 *
 * `identify` never throws: a caller it refuses is counted as anonymous (per IP) by the rate
 * limiter first, so a 401 carries the limit headers and guessing keys is rate limited; then
 * `authorize` throws the refusal (401), or 403 for a restricted address without the secret.
 * One exception, as Blockscout: the per-instance Etherscan dialect (`/api?module=…`) ignores a
 * key it does not know and serves the caller as anonymous (hardhat-verify 2 always sends the
 * literal key `api_key`).
 */
import { timingSafeEqual } from 'node:crypto';
import { ETHERSCAN_ENDPOINT } from '../lib/index.ts';
import { ApiException } from './request.ts';
import type { HostRequest, Identity, Step } from './request.ts';
import { ANONYMOUS_PLAN, grantDigest, sha256 } from './plans.ts';
import type { KeyGrant, Plan } from './plans.ts';

export interface IdentityOptions {
  readonly keys?: readonly KeyGrant[];
  /** plan of callers without a key, limited per IP */
  readonly anonymousPlan?: Plan;
  /** the multichain form `/{chain_id}/api/v2` refuses callers without a key (default true) */
  readonly requireKeyForMultichain?: boolean;
  /** addresses (any case) that a request's path may only mention with `?key=<secretKey>` */
  readonly restrictedAddresses?: readonly string[];
  readonly secretKey?: string;
  /**
   * the key set, swappable while serving (`serve` reloads its keys file on SIGHUP): when given,
   * it replaces `keys`, `anonymousPlan`, `restrictedAddresses` and `secretKey` above
   */
  readonly keyRing?: KeyRing;
}

/** What a key ring holds: the keys file's grants, anonymous plan and restrictions. */
export interface KeySet {
  readonly keys?: readonly KeyGrant[];
  readonly anonymousPlan?: Plan;
  readonly restrictedAddresses?: readonly string[];
  readonly secretKey?: string;
}

/** The key set the request steps read, swapped at once (a request judged before keeps the set it began with). */
export interface KeyRing {
  readonly set: KeySet;
  /** @internal the set as the steps use it */
  readonly compiled: CompiledKeySet;
  replace(next: KeySet): void;
}

interface CompiledKeySet {
  readonly grants: readonly Grant[];
  /** keys that matched a grant: a key maps to one digest, so at most one entry per grant */
  readonly matched: Map<string, Grant>;
  readonly anonymousPlan: Plan;
  readonly restricted: readonly string[];
  readonly secret: Buffer | undefined;
}

export function createKeyRing(initial: KeySet): KeyRing {
  let set = initial;
  let compiled = compileKeySet(initial);
  return {
    get set() {
      return set;
    },
    get compiled() {
      return compiled;
    },
    replace(next) {
      compiled = compileKeySet(next);
      set = next;
    },
  };
}

function compileKeySet(options: KeySet): CompiledKeySet {
  const grants: Grant[] = (options.keys ?? []).map((g) => {
    const digest = grantDigest(g);
    const id = `key:${digest.toString('hex')}`;
    const identity: Identity = { kind: 'key', id, plan: g.plan, ...(g.name ? { name: g.name } : {}) };
    return { digest, id, plan: g.plan, identity, ...(g.name ? { name: g.name } : {}) };
  });
  return {
    grants,
    matched: new Map(),
    anonymousPlan: options.anonymousPlan ?? ANONYMOUS_PLAN,
    restricted: (options.restrictedAddresses ?? []).map((a) => a.toLowerCase()),
    secret: options.secretKey === undefined ? undefined : sha256(options.secretKey),
  };
}

interface Grant {
  readonly digest: Buffer;
  /** the limiter id: `key:<digest hex>` */
  readonly id: string;
  readonly plan: Plan;
  readonly name?: string;
  /** the caller's identity, one object per grant (read-only) */
  readonly identity: Identity;
}

/** The key a request carries, by the documented precedence; undefined when none. */
export function requestKey(request: Pick<HostRequest, 'headers' | 'query'>): string | undefined {
  const auth = firstValue(request.headers['authorization']);
  const bearer = auth === undefined ? undefined : /^Bearer\s+(.+)$/i.exec(auth)?.[1]?.trim();
  if (bearer) return bearer;
  const header = firstValue(request.headers['x-api-key'])?.trim();
  if (header) return header;
  // `apiKey` (the etherscan-api client's spelling) is read as `apikey`
  return (firstValue(request.query['apikey']) ?? firstValue(request.query['apiKey']))?.trim() || undefined;
}

/** Sets the request's identity (and its refusal, thrown later by `authorize`); never throws. */
export function identify(options: IdentityOptions): Step {
  const ring = options.keyRing ?? createKeyRing(options);
  const requireKeyForMultichain = options.requireKeyForMultichain ?? true;

  return (request, info) => {
    const { grants, matched, anonymousPlan } = ring.compiled;
    const key = requestKey(request);
    if (key === undefined) {
      info.identity = anonymousCaller(request, anonymousPlan);
      if (info.form === 'multichain' && requireKeyForMultichain) {
        info.rejection = { kind: 'Unauthorized', message: 'API key required' };
      }
      return;
    }
    let grant = matched.get(key);
    if (grant === undefined) {
      grant = findGrant(grants, sha256(key));
      if (grant !== undefined) matched.set(key, grant);
    }
    if (!grant) {
      info.identity = anonymousCaller(request, anonymousPlan);
      // Blockscout's `/api` ignores a key it does not know and limits by IP (hardhat-verify 2
      // always sends the literal key `api_key`); the multichain form and API v2 refuse it
      if (info.endpoint === ETHERSCAN_ENDPOINT && info.form === 'instance') return;
      info.rejection = { kind: 'Unauthorized', message: 'Invalid API key' };
      return;
    }
    info.identity = grant.identity;
  };
}

/** Built only for a caller without a valid key (a Koa context's ip is not free; nor is a closure per request). */
function anonymousCaller(request: HostRequest, plan: Plan): Identity {
  return { kind: 'anonymous', id: `ip:${request.ip}`, plan };
}

/** Compare against every grant in constant time per comparison, without an early exit. */
function findGrant(grants: readonly Grant[], digest: Buffer): Grant | undefined {
  let found: Grant | undefined;
  for (const grant of grants) {
    if (grant.digest.length === digest.length && timingSafeEqual(grant.digest, digest) && !found) found = grant;
  }
  return found;
}

/** Throws the identity's refusal, or 403 for a restricted address without the right `key`. */
export function authorize(options: IdentityOptions): Step {
  const ring = options.keyRing ?? createKeyRing(options);
  return (request, info) => {
    if (info.rejection) throw new ApiException(info.rejection);
    const { restricted, secret } = ring.compiled;
    if (restricted.length > 0) {
      const path = safeDecode(request.path).toLowerCase();
      if (restricted.some((address) => path.includes(address))) {
        const given = firstValue(request.query['key']);
        const unlocked = secret !== undefined && given !== undefined && timingSafeEqual(sha256(given), secret);
        if (!unlocked) throw new ApiException({ kind: 'Forbidden' });
      }
    }
  };
}

function firstValue(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === 'string' || value === undefined ? value : value[0];
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
