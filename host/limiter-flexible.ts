/**
 * The shape both limiter stores share: one rate-limiter-flexible limiter per limit and window,
 * answering `ConsumeRequest`s (rate windows of N seconds, credit periods ending at a date).
 */
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { ConsumeRequest, ConsumeResult, LimitWindow } from './limits.ts';

export interface FlexibleStore {
  consume(request: ConsumeRequest): Promise<ConsumeResult>;
  peek(request: ConsumeRequest): Promise<ConsumeResult>;
  /** add `cost` to a bucket whatever it holds (spending counted elsewhere); the bucket after it */
  charge(request: ConsumeRequest): Promise<ConsumeResult>;
}

/**
 * `limiter-per-period`: a calendar period is its own limiter without expiry (in memory, Node
 * timers overflow past 24.8 days); `custom-duration`: one limiter, the period's end as the key's
 * expiry (Redis).
 */
export function flexibleStore(
  make: (points: number, duration: number) => RateLimiterAbstract,
  calendar: 'limiter-per-period' | 'custom-duration',
): FlexibleStore {
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
      return { limiter: cached(`${limit}/until${window.endsAt}`, limit, 0, window.endsAt), options: {} };
    }
    const customDuration = Math.max(1, Math.ceil((window.endsAt - now) / 1000));
    return { limiter: cached(`${limit}/calendar`, limit, 1), options: { customDuration } };
  };
  const answer = (res: RateLimiterRes, request: ConsumeRequest, now: number, admitted: boolean): ConsumeResult => ({
    admitted,
    remaining: admitted ? res.remainingPoints : 0,
    resetMs: resetOf(res, request.window, now),
  });
  return {
    async consume(request) {
      const now = Date.now();
      const { limiter, options } = pick(request, now);
      try {
        return answer(await limiter.consume(request.key, request.cost, options), request, now, true);
      } catch (e) {
        if (e instanceof RateLimiterRes) return answer(e, request, now, false);
        throw e;
      }
    },
    async peek(request) {
      const now = Date.now();
      const res = await pick(request, now).limiter.get(request.key);
      const remaining = res ? Math.max(0, request.limit - res.consumedPoints) : request.limit;
      return { admitted: remaining >= request.cost, remaining, resetMs: res ? resetOf(res, request.window, now) : 0 };
    },
    async charge(request) {
      const now = Date.now();
      const { limiter, options } = pick(request, now);
      const res = await limiter.penalty(request.key, request.cost, options);
      return { admitted: res.remainingPoints > 0, remaining: res.remainingPoints, resetMs: resetOf(res, request.window, now) };
    },
  };
}

function resetOf(res: RateLimiterRes, window: LimitWindow, now: number): number {
  if ('endsAt' in window) return Math.max(0, window.endsAt - now);
  return Math.max(0, Math.round(res.msBeforeNext));
}
