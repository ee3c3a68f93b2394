/**
 * Limiter state in Redis, with a per-process insurance for when Redis is really down.
 *
 * - Redis `ready`: every answer comes from Redis, however long it takes (the rate-limit
 *   middleware bounds the wait and refuses with 503; it never serves unlimited).
 * - Redis not ready (refused, broken, reconnecting), or a command lost with the connection: the
 *   insurance answers. Rate windows: an in-memory limiter enforcing the full plan in this
 *   process (H hosts admit at most H × the plan per window). Credits: a local ledger; each host
 *   spends at most the remaining credits it last saw from Redis for that bucket (the full
 *   allowance for a bucket it had not seen), and on reconnect adds what it spent to Redis.
 * - ioredis reconnects every `RECONNECT_MAX_MS` at most; once connected, the local spending is
 *   added to Redis first, then Redis answers again: the shared limit resumes within about
 *   `RECONNECT_MAX_MS` of Redis being back.
 */
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { ConsumeRequest, ConsumeResult, LimiterStore } from './limits.ts';
import { flexibleStore } from './limiter-flexible.ts';

/** ceiling of ioredis' reconnect delay (ms) for clients made by `redisLimiterClient` */
export const RECONNECT_MAX_MS = 250;
/** credit buckets whose last remaining value is remembered (older ones fall back to the allowance) */
const SEEN_BUCKETS = 100_000;

/**
 * An ioredis client set up for the limiter: no offline queue and no retries (an outage answers
 * at once, from the insurance), reconnecting every ≤ 250 ms for ever.
 */
export function redisLimiterClient(url: string): Redis {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 50, RECONNECT_MAX_MS),
  });
  client.on('error', () => {}); // an outage is handled by the insurance; ioredis reconnects
  return client;
}

export type RedisLimiterOptions = {
  /** namespace of the keys (default `scoutkit`); hosts sharing a limit share it */
  readonly keyPrefix?: string;
} & (
  | {
      /** an ioredis client; create it with `redisLimiterClient(url)` or the same options */
      readonly client: Redis;
      /** also `quit()` the client on close (default false: the caller owns it) */
      readonly closeClient?: boolean;
    }
  /** a Redis URL: the store makes its client (`redisLimiterClient`) and closes it */
  | { readonly url: string }
);

/**
 * `redisLimiterStore({ url })`, once Redis has answered (or `waitMs` has passed: the insurance
 * answers until it does). `connected` says which.
 */
export async function connectRedisLimiterStore(options: {
  readonly url: string;
  readonly keyPrefix?: string;
  /** default 5000 */
  readonly waitMs?: number;
}): Promise<{ readonly store: LimiterStore; readonly connected: boolean }> {
  const client = redisLimiterClient(options.url);
  let timer: NodeJS.Timeout | undefined;
  const connected = await new Promise<boolean>((resolve) => {
    client.once('ready', () => resolve(true));
    timer = setTimeout(() => resolve(false), options.waitMs ?? 5000);
  });
  clearTimeout(timer);
  const keyPrefix = options.keyPrefix === undefined ? {} : { keyPrefix: options.keyPrefix };
  return { store: redisLimiterStore({ client, closeClient: true, ...keyPrefix }), connected };
}

/** A credit bucket spent locally while Redis was away. */
interface LedgerEntry {
  readonly request: ConsumeRequest;
  /** what this process may spend before Redis is back */
  budget: number;
  /** spent locally, not yet added to Redis */
  spent: number;
}

/** Limiter state in Redis: every host using the same Redis and prefix enforces one limit. */
export function redisLimiterStore(options: RedisLimiterOptions): LimiterStore {
  const keyPrefix = options.keyPrefix ?? 'scoutkit';
  const client = 'url' in options ? redisLimiterClient(options.url) : options.client;
  const closeClient = 'url' in options ? true : (options.closeClient ?? false);
  const shared = flexibleStore(
    (points, duration) =>
      new RateLimiterRedis({ storeClient: client, points, duration, keyPrefix, rejectIfRedisNotReady: true }),
    'custom-duration',
  );
  const insurance = flexibleStore((points, duration) => new RateLimiterMemory({ points, duration }), 'limiter-per-period');
  /** Redis answers and holds every local spending: requests go to Redis */
  let synced = client.status === 'ready';
  let reconciling: Promise<void> | undefined;
  /** the connection can carry a command (status `ready` lags a socket the server has ended) */
  const up = () => client.status === 'ready' && client.stream?.writable === true;
  const ready = () => synced && up();

  /** the remaining credits Redis last reported per credit bucket (kept low: min of what was seen) */
  const seen = new Map<string, number>();
  const ledger = new Map<string, LedgerEntry>();
  const remember = (request: ConsumeRequest, result: ConsumeResult) => {
    if ('seconds' in request.window) return;
    const before = seen.get(request.key);
    seen.delete(request.key); // re-inserted last: the map's order is the order of use
    seen.set(request.key, before === undefined ? result.remaining : Math.min(before, result.remaining));
    if (seen.size > SEEN_BUCKETS) seen.delete(seen.keys().next().value as string);
  };

  const local = async (request: ConsumeRequest, spend: boolean): Promise<ConsumeResult> => {
    const { window } = request;
    if ('seconds' in window) return { ...(await (spend ? insurance.consume(request) : insurance.peek(request))), insurance: true };
    const now = Date.now();
    let entry = ledger.get(request.key);
    if (!entry) {
      for (const [key, other] of ledger) if ('endsAt' in other.request.window && other.request.window.endsAt <= now) ledger.delete(key);
      entry = { request, budget: seen.get(request.key) ?? request.limit, spent: 0 };
      ledger.set(request.key, entry);
    }
    const admitted = entry.spent + request.cost <= entry.budget;
    if (admitted && spend) entry.spent += request.cost;
    const remaining = admitted ? entry.budget - entry.spent : 0;
    return { admitted, remaining, resetMs: Math.max(0, window.endsAt - now), insurance: true };
  };

  const answer = async (request: ConsumeRequest, spend: boolean): Promise<ConsumeResult> => {
    if (!ready()) return local(request, spend);
    try {
      const result = spend ? await shared.consume(request) : await shared.peek(request);
      remember(request, result);
      return result;
    } catch (e) {
      // the connection went away under the command: Redis is down, not slow
      if (!ready()) return local(request, spend);
      throw e;
    }
  };

  /** Add what was spent locally to Redis; false when Redis went away again (the rest waits). */
  const reconcile = async (): Promise<boolean> => {
    const now = Date.now();
    const results = await Promise.all(
      [...ledger].map(async ([key, entry]) => {
        const { window } = entry.request;
        const spent = entry.spent;
        if (spent === 0 || ('endsAt' in window && window.endsAt <= now)) {
          ledger.delete(key);
          return true;
        }
        try {
          const after = await shared.charge({ ...entry.request, cost: spent });
          seen.set(key, after.remaining);
          entry.spent -= spent;
          entry.budget -= spent;
          if (entry.spent === 0) ledger.delete(key);
          return true;
        } catch {
          return false;
        }
      }),
    );
    return results.every(Boolean);
  };
  let closed = false;
  const onReady = () => {
    if (closed) return;
    reconciling = (reconciling ?? Promise.resolve()).then(async () => {
      if (await reconcile()) synced = up();
      // Redis is up but refused a charge: try again shortly rather than wait for a reconnect
      else if (up()) setTimeout(onReady, RECONNECT_MAX_MS).unref();
    });
  };
  const onClose = () => {
    synced = false;
  };
  client.on('ready', onReady);
  client.on('close', onClose);

  return {
    consume: (request) => answer(request, true),
    peek: (request) => answer(request, false),
    async close() {
      closed = true;
      client.off('ready', onReady);
      client.off('close', onClose);
      await reconciling;
      if (closeClient) {
        if (ready()) await client.quit();
        else client.disconnect();
      }
    },
  };
}
