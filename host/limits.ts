/**
 * Rate limits and credits, through rate-limiter-flexible behind a small store interface.
 *
 * Per request: one point from the caller's one-second window (over → 429, no credits spent),
 * then the endpoint's cost from the caller's credits for the current UTC day or month
 * (over → 402). Every response of our routes carries the four headers; when the store fails
 * or is slow, the request is served and the headers read -1.
 */
import type { Middleware } from 'koa';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { EndpointName } from '../lib/index.ts';
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
}

/** Where limiter state lives. Rejects only when the store itself fails. */
export interface LimiterStore {
  /** answers in-process, never slow: no timeout is armed around it */
  readonly local?: boolean;
  consume(request: ConsumeRequest): Promise<ConsumeResult>;
  /** the state of a bucket without spending (`cost` is what the caller would spend) */
  peek(request: ConsumeRequest): Promise<ConsumeResult>;
  close?(): Promise<void>;
}

/** Shared shape of both stores: one rate-limiter-flexible limiter per limit and window. */
function flexibleStore(
  make: (points: number, duration: number) => RateLimiterAbstract,
  calendar: 'limiter-per-period' | 'custom-duration',
): LimiterStore {
  const limiters = new Map<string, { readonly limiter: RateLimiterAbstract; readonly endsAt: number }>();
  const cached = (id: string, points: number, duration: number, endsAt = Infinity): RateLimiterAbstract => {
    let found = limiters.get(id);
    if (!found) {
      const now = Date.now();
      for (const [other, entry] of limiters) if (entry.endsAt < now) limiters.delete(other);
      found = { limiter: make(points, duration), endsAt };
      limiters.set(id, found);
    }
    return found.limiter;
  };
  const pick = ({ limit, window }: ConsumeRequest, now: number) => {
    if ('seconds' in window) return { limiter: cached(`${limit}/${window.seconds}s`, limit, window.seconds), options: {} };
    if (calendar === 'limiter-per-period') {
      // Node timers overflow past 24.8 days: in memory a period is its own limiter, without expiry
      return { limiter: cached(`${limit}/until${window.endsAt}`, limit, 0, window.endsAt), options: {} };
    }
    const customDuration = Math.max(1, Math.ceil((window.endsAt - now) / 1000));
    return { limiter: cached(`${limit}/calendar`, limit, 1), options: { customDuration } };
  };
  return {
    async consume(request) {
      const now = Date.now();
      const { limiter, options } = pick(request, now);
      try {
        const res = await limiter.consume(request.key, request.cost, options);
        return { admitted: true, remaining: res.remainingPoints, resetMs: resetOf(res, request.window, now) };
      } catch (e) {
        if (e instanceof RateLimiterRes) {
          return { admitted: false, remaining: 0, resetMs: resetOf(e, request.window, now) };
        }
        throw e;
      }
    },
    async peek(request) {
      const now = Date.now();
      const res = await pick(request, now).limiter.get(request.key);
      const remaining = res ? Math.max(0, request.limit - res.consumedPoints) : request.limit;
      return { admitted: remaining >= request.cost, remaining, resetMs: res ? resetOf(res, request.window, now) : 0 };
    },
  };
}

function resetOf(res: RateLimiterRes, window: LimitWindow, now: number): number {
  if ('endsAt' in window) return Math.max(0, window.endsAt - now);
  return Math.max(0, Math.round(res.msBeforeNext));
}

/** In-process limiter state (the default): one host. */
export function memoryLimiterStore(): LimiterStore {
  return { ...flexibleStore((points, duration) => new RateLimiterMemory({ points, duration }), 'limiter-per-period'), local: true };
}

export interface RedisLimiterOptions {
  /** an ioredis client; create it with `enableOfflineQueue: false` so an outage fails fast */
  readonly client: Redis;
  /** namespace of the keys (default `scoutkit`); hosts sharing a limit share it */
  readonly keyPrefix?: string;
  /** also `quit()` the client on close (default false: the caller owns it) */
  readonly closeClient?: boolean;
}

/** Limiter state in Redis: every host using the same Redis and prefix enforces one limit. */
export function redisLimiterStore(options: RedisLimiterOptions): LimiterStore {
  const keyPrefix = options.keyPrefix ?? 'scoutkit';
  const store = flexibleStore(
    (points, duration) =>
      new RateLimiterRedis({ storeClient: options.client, points, duration, keyPrefix, rejectIfRedisNotReady: true }),
    'custom-duration',
  );
  return {
    consume: (request) => store.consume(request),
    peek: (request) => store.peek(request),
    async close() {
      if (options.closeClient) await options.client.quit();
    },
  };
}

export interface RateLimitOptions {
  /** default: in-memory */
  readonly limiter?: LimiterStore;
  /** credits an endpoint costs (default 1) */
  readonly costs?: Partial<Readonly<Record<EndpointName, number>>>;
  /** a store slower than this counts as failed: serve, headers -1 (default 250 ms) */
  readonly limiterTimeoutMs?: number;
}

/** End of the current UTC day or month, in epoch ms. */
export function periodEnd(period: 'day' | 'month', now: number): number {
  const d = new Date(now);
  return period === 'day'
    ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)
    : Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

export function rateLimit(options: RateLimitOptions = {}): Middleware {
  const store = options.limiter ?? memoryLimiterStore();
  const timeoutMs = options.limiterTimeoutMs ?? 250;
  return async (ctx, next) => {
    const info = requestInfo(ctx);
    const identity = info?.identity;
    if (!info || !identity) return next();
    const { plan } = identity;
    const cost = options.costs?.[info.endpoint] ?? 1;
    const endsAt = periodEnd(plan.creditPeriod, Date.now());
    let outcome: 'admitted' | 'rate' | 'credits';
    try {
      const result = await withTimeout(store.local === true ? null : timeoutMs, async () => {
        const rate = await store.consume({
          key: `rate:${identity.id}`,
          limit: plan.requestsPerSecond,
          cost: 1,
          window: { seconds: 1 },
        });
        const bucket = { key: `credits:${plan.name}:${identity.id}:${endsAt}`, limit: plan.credits, cost, window: { endsAt } };
        // a request refused by the rate spends no credits
        const credits = rate.admitted ? await store.consume(bucket) : await store.peek(bucket);
        return { rate, credits };
      });
      ctx.set('x-ratelimit-limit', String(plan.requestsPerSecond));
      ctx.set('x-ratelimit-remaining', String(result.rate.remaining));
      ctx.set('x-ratelimit-reset', String(result.rate.resetMs));
      ctx.set('x-credits-remaining', String(result.credits.remaining));
      outcome = !result.rate.admitted ? 'rate' : result.credits.admitted ? 'admitted' : 'credits';
    } catch {
      for (const header of LIMIT_HEADERS) ctx.set(header, '-1');
      outcome = 'admitted';
    }
    if (outcome === 'rate') throw new ApiException({ kind: 'RateLimited' });
    if (outcome === 'credits') throw new ApiException({ kind: 'PaymentRequired' });
    return next();
  };
}

/** run(), failing after `ms` (null: no timer — a local store cannot hang) */
async function withTimeout<T>(ms: number | null, run: () => Promise<T>): Promise<T> {
  if (ms === null) return run();
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
