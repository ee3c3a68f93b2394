/**
 * Rate limits and credits, through rate-limiter-flexible behind a small store interface.
 *
 * Per request: one point from the caller's rate window (the plan's `requests` per
 * `windowSeconds`; over → 429 with `retry-after`, the seconds until the window resets; no
 * credits spent), then the endpoint's cost from the caller's credits for the current UTC day
 * or month (over → 402). Every response of our routes carries the four headers.
 *
 * Never fail open: a store that does not answer within `limiterTimeoutMs` (or fails) gets the
 * request refused with 503 `{"message":"Rate limiter busy, retry shortly"}` and `retry-after`.
 * A store that is really down answers from its own insurance (see `redisLimiterStore`).
 */
import type { ServiceName } from '../lib/index.ts';
import { planWindow } from './plans.ts';
import { ApiException } from './request.ts';
import type { HeaderSink, RequestInfo, Step } from './request.ts';

export const LIMIT_HEADERS = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-credits-remaining',
] as const;

/** A fixed window: `seconds` from the bucket's first hit, or a calendar period ending at `endsAt`. */
export type LimitWindow = { readonly seconds: number } | { readonly endsAt: number };

export interface ConsumeRequest {
  /** bucket id; for a calendar window it must name the period (the store may keep it until `endsAt`) */
  readonly key: string;
  /** points per window */
  readonly limit: number;
  readonly cost: number;
  readonly window: LimitWindow;
}

export interface ConsumeResult {
  readonly admitted: boolean;
  /** points left in the window after this request (0 when refused) */
  readonly remaining: number;
  /** milliseconds until the window resets */
  readonly resetMs: number;
  /** answered by the store's per-process insurance while the shared store is down */
  readonly insurance?: boolean;
}

/**
 * Where limiter state lives. Rejects only when the store itself fails (the request is then
 * refused with 503); a store with a fallback answers from it instead.
 */
export interface LimiterStore {
  /** answers in-process, never slow: no timeout is armed around it */
  readonly local?: boolean;
  consume(request: ConsumeRequest): Promise<ConsumeResult>;
  /** the state of a bucket without spending (`cost` is what the caller would spend) */
  peek(request: ConsumeRequest): Promise<ConsumeResult>;
  /** `consume` answered synchronously, by a store that can (with `peekNow`): no promise per request */
  consumeNow?(request: ConsumeRequest): ConsumeResult;
  /** `peek` answered synchronously */
  peekNow?(request: ConsumeRequest): ConsumeResult;
  close?(): Promise<void>;
}

/**
 * In-process limiter state (the default): one host. Fixed windows counted in a Map, answered
 * synchronously (rate-limiter-flexible's memory limiter answers through a promise and arms a
 * timer per bucket; on the hot path of every request that costs more than the counting). As
 * there: a window starts at the bucket's first hit, a refused request's cost is counted too, a
 * calendar period's bucket lives until the period ends. Ended buckets are swept at most once a
 * second (less often for many buckets).
 */
export function memoryLimiterStore(): LimiterStore {
  const buckets = new Map<string, Bucket>();
  let nextSweep = 0;
  const sweep = (now: number): void => {
    if (now < nextSweep) return;
    for (const [id, bucket] of buckets) if (bucket.endsAt <= now) buckets.delete(id);
    nextSweep = now + Math.max(1000, buckets.size / 10);
  };
  // as rate-limiter-flexible: a bucket per limit and window, then key
  const bucketId = ({ key, limit, window }: ConsumeRequest): string =>
    'seconds' in window ? `${limit}/${window.seconds}s ${key}` : `${limit}/until${window.endsAt} ${key}`;
  const consumeNow = (request: ConsumeRequest): ConsumeResult => {
    const now = Date.now();
    sweep(now);
    const id = bucketId(request);
    let bucket = buckets.get(id);
    if (bucket === undefined || bucket.endsAt <= now) {
      bucket = { consumed: 0, endsAt: 'seconds' in request.window ? now + request.window.seconds * 1000 : request.window.endsAt };
      buckets.set(id, bucket);
    }
    bucket.consumed += request.cost;
    const admitted = bucket.consumed <= request.limit;
    return { admitted, remaining: admitted ? request.limit - bucket.consumed : 0, resetMs: Math.max(0, bucket.endsAt - now) };
  };
  const peekNow = (request: ConsumeRequest): ConsumeResult => {
    const now = Date.now();
    const bucket = buckets.get(bucketId(request));
    const live = bucket !== undefined && bucket.endsAt > now;
    const remaining = live ? Math.max(0, request.limit - bucket.consumed) : request.limit;
    return { admitted: remaining >= request.cost, remaining, resetMs: live ? Math.max(0, bucket.endsAt - now) : 0 };
  };
  return {
    local: true,
    consumeNow,
    peekNow,
    consume: async (request) => consumeNow(request),
    peek: async (request) => peekNow(request),
  };
}

interface Bucket {
  consumed: number;
  readonly endsAt: number;
}

/** How long a request waits for a shared limiter store by default (see docs/operations.md "Keys and limits"). */
export const DEFAULT_LIMITER_TIMEOUT_MS = 3000;
export const LIMITER_BUSY_MESSAGE = 'Rate limiter busy, retry shortly';

export interface RateLimitOptions {
  /** default: in-memory */
  readonly limiter?: LimiterStore;
  /** credits an endpoint costs (default 1); `ethRpc` is charged per call of a batch */
  readonly costs?: Partial<Readonly<Record<ServiceName, number>>>;
  /** a store slower than this: the request is refused with 503 and `retry-after` (default 3000 ms) */
  readonly limiterTimeoutMs?: number;
  /** the message of a 429 body (default `RATE_LIMITED_MESSAGE`) */
  readonly rateLimitMessage?: string;
}

/** End of the current UTC day or month, in epoch ms. */
export function periodEnd(period: 'day' | 'month', now: number): number {
  const d = new Date(now);
  return period === 'day'
    ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)
    : Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** Spends the request's rate point and credits, and sets the four headers; refuses with 429, 402 or 503. */
export function rateLimit(options: RateLimitOptions = {}): Step {
  // the end of the current day and month, recomputed only once they have passed
  const ends = { day: { now: -Infinity, end: -Infinity }, month: { now: -Infinity, end: -Infinity } };
  const currentPeriodEnd = (period: 'day' | 'month', now: number): number => {
    const known = ends[period];
    if (now < known.now || now >= known.end) ends[period] = { now, end: periodEnd(period, now) };
    return ends[period].end;
  };
  const store = options.limiter ?? memoryLimiterStore();
  const timeoutMs = options.limiterTimeoutMs ?? DEFAULT_LIMITER_TIMEOUT_MS;
  const tooMany = options.rateLimitMessage === undefined ? {} : { message: options.rateLimitMessage };
  const costs = options.costs as Readonly<Record<string, number | undefined>> | undefined;
  const busy = (response: HeaderSink, info: RequestInfo): never => {
    // never serve unlimited: the store is slow or failing, the caller retries
    response.set('retry-after', '1');
    info.limiterBusy = true;
    throw new ApiException({ kind: 'Unavailable', message: LIMITER_BUSY_MESSAGE });
  };
  const apply = (response: HeaderSink, info: RequestInfo, limit: number, result: Consumed): void => {
    response.set('x-ratelimit-limit', String(limit));
    response.set('x-ratelimit-remaining', String(result.rate.remaining));
    response.set('x-ratelimit-reset', String(result.rate.resetMs));
    response.set('x-credits-remaining', String(result.credits.remaining));
    if (!result.rate.admitted) {
      // whole seconds until the window resets (at least 1)
      response.set('retry-after', String(Math.max(1, Math.ceil(result.rate.resetMs / 1000))));
      throw new ApiException({ kind: 'RateLimited', ...tooMany });
    }
    if (!result.credits.admitted) throw new ApiException({ kind: 'PaymentRequired', form: info.form });
  };
  return (_request, info, response) => {
    const identity = info.identity;
    if (!identity) return;
    const { plan } = identity;
    const { requests, windowSeconds } = planWindow(plan);
    const cost = (costs?.[info.endpoint] ?? 1) * (info.units ?? 1);
    const endsAt = currentPeriodEnd(plan.creditPeriod, Date.now());
    const rate: ConsumeRequest = { key: `rate:${identity.id}`, limit: requests, cost: 1, window: { seconds: windowSeconds } };
    const credits: ConsumeRequest = { key: `credits:${plan.name}:${identity.id}:${endsAt}`, limit: plan.credits, cost, window: { endsAt } };
    if (store.consumeNow !== undefined && store.peekNow !== undefined) {
      // an in-process store answers at once: no promise, no timer
      let result: Consumed;
      try {
        result = consumeBothNow(store as Required<Pick<LimiterStore, 'consumeNow' | 'peekNow'>>, rate, credits);
      } catch {
        return busy(response, info);
      }
      return apply(response, info, requests, result);
    }
    const pending = store.local === true ? consumeBoth(store, rate, credits) : withTimeout(timeoutMs, () => consumeBoth(store, rate, credits));
    return pending.then(
      (result) => apply(response, info, requests, result),
      () => busy(response, info),
    );
  };
}

interface Consumed {
  readonly rate: ConsumeResult;
  readonly credits: ConsumeResult;
}

/** One point from the rate window, then the cost from the credits (a refused request spends none). */
async function consumeBoth(store: LimiterStore, rate: ConsumeRequest, credits: ConsumeRequest): Promise<Consumed> {
  const window = await store.consume(rate);
  return { rate: window, credits: window.admitted ? await store.consume(credits) : await store.peek(credits) };
}

/** `consumeBoth` of a store that answers synchronously. */
function consumeBothNow(store: Required<Pick<LimiterStore, 'consumeNow' | 'peekNow'>>, rate: ConsumeRequest, credits: ConsumeRequest): Consumed {
  const window = store.consumeNow(rate);
  return { rate: window, credits: window.admitted ? store.consumeNow(credits) : store.peekNow(credits) };
}

/** run(), failing after `ms` */
async function withTimeout<T>(ms: number, run: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`limiter store timed out after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([run(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
