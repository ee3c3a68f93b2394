/**
 * Rate limits and credits, through rate-limiter-flexible behind a small store interface.
 *
 * Per request: one point from the caller's rate window (the plan's `requests` per
 * `windowSeconds`; over → 429, no credits spent), then the endpoint's cost from the caller's
 * credits for the current UTC day or month (over → 402). Every response of our routes carries
 * the four headers.
 *
 * Never fail open: a store that does not answer within `limiterTimeoutMs` (or fails) gets the
 * request refused with 503 `{"message":"Rate limiter busy, retry shortly"}` and `retry-after`.
 * A store that is really down answers from its own insurance (see `redisLimiterStore`).
 */
import type { Middleware } from 'koa';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { ServiceName } from '../lib/index.ts';
import { flexibleStore } from './limiter-flexible.ts';
import { planWindow } from './plans.ts';
import { ApiException, requestInfo } from './request.ts';

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
  close?(): Promise<void>;
}

/** In-process limiter state (the default): one host. */
export function memoryLimiterStore(): LimiterStore {
  const store = flexibleStore((points, duration) => new RateLimiterMemory({ points, duration }), 'limiter-per-period');
  return { consume: (request) => store.consume(request), peek: (request) => store.peek(request), local: true };
}

/** How long a request waits for a shared limiter store by default (see README "Keys and limits"). */
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

export function rateLimit(options: RateLimitOptions = {}): Middleware {
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
  return async (ctx, next) => {
    const info = requestInfo(ctx);
    const identity = info?.identity;
    if (!info || !identity) return next();
    const { plan } = identity;
    const { requests, windowSeconds } = planWindow(plan);
    const cost = (options.costs?.[info.endpoint] ?? 1) * (info.units ?? 1);
    const endsAt = currentPeriodEnd(plan.creditPeriod, Date.now());
    const rate: ConsumeRequest = { key: `rate:${identity.id}`, limit: requests, cost: 1, window: { seconds: windowSeconds } };
    const credits: ConsumeRequest = { key: `credits:${plan.name}:${identity.id}:${endsAt}`, limit: plan.credits, cost, window: { endsAt } };
    let result: Consumed;
    try {
      // a local store answers at once: no timer, no closure
      result = store.local === true ? await consumeBoth(store, rate, credits) : await withTimeout(timeoutMs, () => consumeBoth(store, rate, credits));
    } catch {
      // never serve unlimited: the store is slow or failing, the caller retries
      ctx.set('retry-after', '1');
      info.limiterBusy = true;
      throw new ApiException({ kind: 'Unavailable', message: LIMITER_BUSY_MESSAGE });
    }
    ctx.set('x-ratelimit-limit', String(requests));
    ctx.set('x-ratelimit-remaining', String(result.rate.remaining));
    ctx.set('x-ratelimit-reset', String(result.rate.resetMs));
    ctx.set('x-credits-remaining', String(result.credits.remaining));
    if (!result.rate.admitted) throw new ApiException({ kind: 'RateLimited', ...tooMany });
    if (!result.credits.admitted) throw new ApiException({ kind: 'PaymentRequired', form: info.form });
    return next();
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
