/**
 * A Redis-backed limiter shared by two app instances enforces one limit; an unreachable Redis
 * leaves each host to its insurance. (Load and outages: redis-load and redis-outage tests.)
 * Redis at 127.0.0.1:6379 (REDIS_URL overrides). Under CI=true it must be there; elsewhere, when
 * it is unreachable, this file says so loudly and skips.
 */
import t from 'tap';
import type { Test } from 'tap';
import Koa from 'koa';
import { Redis } from 'ioredis';
import { createExplorer } from '../../lib/index.ts';
import { explorerMiddleware, redisLimiterStore } from '../../host/index.ts';
import type { Plan } from '../../host/index.ts';
import { fixtureChains, limitHeaders, listen, request } from './helpers.ts';
import { REDIS_URL, redisAnswers } from './redis-support.ts';

if (!(await redisAnswers(REDIS_URL))) {
  if (process.env.CI === 'true') {
    t.fail(`Redis is required under CI and is not reachable at ${REDIS_URL}`);
  } else {
    console.error(`\n!!!!! REDIS NOT REACHABLE AT ${REDIS_URL}: SKIPPING THE SHARED-LIMITER TEST (it runs under CI=true) !!!!!\n`);
    t.pass('skipped: no Redis');
  }
} else {
  const { chain1 } = await fixtureChains();
  const explorer = createExplorer({ chains: { '1': chain1 } });
  const plan: Plan = { name: 'shared', requestsPerSecond: 4, credits: 6, creditPeriod: 'month' };
  const keyPrefix = `scoutkit-test-${process.pid}-${Date.now()}`;

  /** A separate host: its own Koa app, Redis client and limiter store, the same Redis and prefix. */
  async function host(t: Test) {
    const client = new Redis(REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    client.on('error', () => {});
    await new Promise<void>((resolve) => client.once('ready', () => resolve()));
    const limiter = redisLimiterStore({ client, keyPrefix, closeClient: true });
    const app = new Koa();
    app.use(explorerMiddleware(explorer, { keys: [{ key: 'shared-key', plan }], limiter }));
    const s = await listen(app);
    t.teardown(async () => {
      await s.close();
      await limiter.close?.();
    });
    return s;
  }

  t.test('two hosts, one limit', async (t) => {
    const a = await host(t);
    const b = await host(t);
    const get = (s: { url: string }) => request(`${s.url}/1/api/v2/blocks/1?apikey=shared-key`);
    const replies = [await get(a), await get(b), await get(a), await get(b), await get(a)];
    t.same(replies.map((r) => r.status), [200, 200, 200, 200, 429], 'the fifth request in the window is refused, on either host');
    t.same(replies.map((r) => limitHeaders(r).remaining), [3, 2, 1, 0, 0]);
    t.same(replies.map((r) => limitHeaders(r).credits), [5, 4, 3, 2, 2]);
    await new Promise((r) => setTimeout(r, limitHeaders(replies[4]!).reset + 50));
    const more = [await get(b), await get(a), await get(b)];
    t.same(more.map((r) => r.status), [200, 200, 402], 'credits are shared too');
    t.same(more.map((r) => limitHeaders(r).credits), [1, 0, 0]);
  });

  t.test('a concurrent burst across two hosts admits at most the limit per window', async (t) => {
    const burstPlan: Plan = { name: 'burst', requestsPerSecond: 8, credits: 1000, creditPeriod: 'day' };
    const make = async () => {
      const client = new Redis(REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
      client.on('error', () => {});
      await new Promise<void>((resolve) => client.once('ready', () => resolve()));
      const limiter = redisLimiterStore({ client, keyPrefix: `${keyPrefix}-burst`, closeClient: true });
      const app = new Koa();
      app.use(explorerMiddleware(explorer, { keys: [{ key: 'burst-key', plan: burstPlan }], limiter }));
      const s = await listen(app);
      t.teardown(async () => {
        await s.close();
        await limiter.close?.();
      });
      return s;
    };
    const hosts = [await make(), await make()];
    const replies = await Promise.all(
      Array.from({ length: 30 }, async (_v, i) => {
        const reply = await request(`${hosts[i % 2]!.url}/1/api/v2/blocks/1?apikey=burst-key`);
        return { status: reply.status, windowEnd: Date.now() + limitHeaders(reply).reset };
      }),
    );
    const admitted = replies.filter((r) => r.status === 200).map((r) => r.windowEnd).sort((x, y) => x - y);
    t.ok(admitted.length >= 8, `a full window admitted (${admitted.length})`);
    const windows: number[][] = [];
    for (const end of admitted) {
      const current = windows.at(-1);
      if (current && end - (current[0] ?? 0) < 500) current.push(end);
      else windows.push([end]);
    }
    for (const w of windows) t.ok(w.length <= 8, `≤ 8 admitted per window across both hosts (${w.length})`);
  });

  t.test('Redis unreachable: the per-process insurance enforces the plan, real headers', async (t) => {
    const limiter = redisLimiterStore({ url: 'redis://127.0.0.1:1' }); // nothing listens there
    const app = new Koa();
    app.use(explorerMiddleware(explorer, { keys: [{ key: 'shared-key', plan }], limiter }));
    const s = await listen(app);
    t.teardown(async () => {
      await s.close();
      await limiter.close?.();
    });
    const get = () => request(`${s.url}/1/api/v2/blocks/1?apikey=shared-key`);
    const replies = [await get(), await get(), await get(), await get(), await get()];
    t.same(replies.map((r) => r.status), [200, 200, 200, 200, 429], 'the plan (4 per second) holds in this process');
    t.same(replies.map((r) => limitHeaders(r).limit), [4, 4, 4, 4, 4], 'x-ratelimit-limit: the plan, not -1');
    t.same(replies.map((r) => limitHeaders(r).remaining), [3, 2, 1, 0, 0]);
    t.same(replies.map((r) => limitHeaders(r).credits), [5, 4, 3, 2, 2], 'credits counted locally');
    t.ok(replies.every((r) => limitHeaders(r).reset >= 0 && limitHeaders(r).reset <= 1000));
    await new Promise((r) => setTimeout(r, limitHeaders(replies[4]!).reset + 50));
    const more = [await get(), await get(), await get()];
    t.same(more.map((r) => r.status), [200, 200, 402], 'out of credits locally too');
    t.same(more[2]?.json, { error: 'Out of credits' });
  });
}
