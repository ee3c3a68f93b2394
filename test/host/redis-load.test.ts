/**
 * Limits that hold under load (issue 14): two hosts on the real Redis (127.0.0.1:6379, REDIS_URL
 * overrides; a unique key prefix), 120 concurrent clients on one key, repeated, while a CPU
 * burner keeps the machine busy. In every run no 200 is served unlimited (-1 headers) and no
 * window admits more than the plan — also when the wait budget is cut so that the slow path (503)
 * runs. Credits: 300 credits buy exactly 300 answers across both hosts, then 402.
 * `npm run bench:limits` is the larger version.
 */
import { createHash } from 'node:crypto';
import t from 'tap';
import { DEFAULT_LIMITER_TIMEOUT_MS, LIMITER_BUSY_MESSAGE } from '../../host/index.ts';
import type { KeyGrant, Plan } from '../../host/index.ts';
import { limitHeaders } from './helpers.ts';
import {
  allJson,
  burst,
  countStatus,
  cpuBurner,
  hosts,
  REDIS_URL,
  redisAnswers,
  serviceMissing,
  unlimited,
  windows,
} from './redis-support.ts';
import type { AdmittedSlot } from './redis-support.ts';

const RUNS = 10;
const SLOW_PATH_RUNS = 3;
const HURRIED_MS = 25;
const CLIENTS = 120;
const EACH = 2;
const PLAN: Plan = { name: 'load', requests: 20, windowSeconds: 2, credits: 1_000_000, creditPeriod: 'month' };
const CREDIT_PLAN: Plan = { name: 'credits', requests: 1_000_000, windowSeconds: 1, credits: 300, creditPeriod: 'month' };

if (!(await redisAnswers(REDIS_URL))) {
  serviceMissing(t, `Redis at ${REDIS_URL}`);
} else {
  const keyPrefix = `scoutkit-test-load-${process.pid}-${Date.now()}`;
  const runKeys: KeyGrant[] = Array.from({ length: RUNS + SLOW_PATH_RUNS }, (_v, i) => ({ key: `load-${i}`, plan: PLAN }));
  const keys: KeyGrant[] = [...runKeys, { key: 'credit-key', plan: CREDIT_PLAN }];
  const slots: AdmittedSlot[] = [];
  const burner = cpuBurner();
  t.teardown(() => burner.stop());
  const patient = await hosts(t, 2, { url: REDIS_URL, keyPrefix, keys, slots });
  // the same shared limit, with a wait budget so short that many answers take the slow path
  const hurried = await hosts(t, 2, { url: REDIS_URL, keyPrefix, keys, slots, server: { limiterTimeoutMs: HURRIED_MS } });

  const summary: string[] = [];
  for (let run = 0; run < RUNS + SLOW_PATH_RUNS; run++) {
    const slowPath = run >= RUNS;
    const budget = slowPath ? HURRIED_MS : DEFAULT_LIMITER_TIMEOUT_MS;
    t.test(`run ${run + 1}: two hosts, ${CLIENTS} clients on one key, wait budget ${budget} ms`, async (t) => {
      const key = `load-${run}`;
      const answers = await burst(slowPath ? hurried : patient, () => `/1/api/v2/blocks/1?apikey=${key}`, CLIENTS, EACH);
      t.equal(answers.length, CLIENTS * EACH);
      t.ok(allJson(answers), 'every answer is JSON');
      const [ok, tooMany, busy] = [200, 429, 503].map((s) => countStatus(answers, s)) as [number, number, number];
      t.equal(ok + tooMany + busy, answers.length, 'only 200, 429 and 503');
      t.equal(answers.filter(unlimited).length, 0, 'no 200 carries -1 headers');
      const refusedBadly = answers.filter(
        (a) => a.reply.status === 503 && !(a.reply.headers.get('retry-after') === '1' && (a.reply.json as { message?: string }).message === LIMITER_BUSY_MESSAGE),
      );
      t.same(refusedBadly, [], `every 503 says "${LIMITER_BUSY_MESSAGE}" with retry-after: 1`);
      const figures = answers.filter((a) => a.reply.status === 200).map((a) => limitHeaders(a.reply));
      t.same(figures.filter((h) => h.limit !== PLAN.requests || h.remaining >= PLAN.requests), [], "every 200 reports the plan's window");
      const mine = slots.filter((s) => s.key === `rate:${keyId(key)}`);
      t.ok(ok <= mine.length, `every 200 holds an admitted slot (${ok} ≤ ${mine.length})`);
      t.equal(mine.filter((s) => s.insurance).length, 0, 'Redis is healthy: the insurance never answers');
      const perWindow = windows(mine, PLAN.windowSeconds * 1000);
      t.ok(perWindow.length >= 1, 'at least one window admitted requests');
      for (const w of perWindow) {
        t.ok(w.length <= PLAN.requests, `≤ ${PLAN.requests} admitted in a window across both hosts (${w.length})`);
        t.equal(new Set(w.map((s) => s.remaining)).size, w.length, 'each admitted request has its own slot');
      }
      summary.push(
        `run ${run + 1} (budget ${budget} ms): 200 ${ok}, 429 ${tooMany}, 503 ${busy}; per window max ${Math.max(...perWindow.map((w) => w.length))}`,
      );
    });
  }

  t.test('300 credits buy exactly 300 answers across both hosts, then 402', async (t) => {
    const answers = await burst(patient, () => '/1/api/v2/blocks/1?apikey=credit-key', 100, 4);
    t.ok(allJson(answers), 'every answer is JSON');
    t.equal(countStatus(answers, 200), 300, '300 admitted');
    t.equal(countStatus(answers, 402), 100, 'then 402');
    const spent = answers.filter((a) => a.reply.status === 200).map((a) => limitHeaders(a.reply).credits);
    t.same(new Set(spent).size, 300, 'each admitted answer spent its own credit');
    t.equal(Math.min(...spent), 0);
    t.equal(Math.max(...spent), 299);
    const refused = answers.filter((a) => a.reply.status === 402).map((a) => limitHeaders(a.reply).credits);
    t.same(new Set(refused), new Set([0]), 'every 402 reports 0 credits');
    t.same(answers.find((a) => a.reply.status === 402)?.reply.json, { error: 'Out of credits' });
    const again = await burst(patient, () => '/1/api/v2/blocks/1?apikey=credit-key', 2);
    t.same(again.map((a) => a.reply.status), [402, 402], 'on either host');
  });

  t.test('summary', async (t) => {
    t.equal(summary.length, RUNS + SLOW_PATH_RUNS, 'every run reported');
    for (const line of summary) t.comment(`redis-load: ${line}`);
  });
}

/** the limiter id of a key: `key:<sha256 hex>` (as host/identity makes it) */
function keyId(key: string): string {
  return `key:${createHash('sha256').update(key, 'utf8').digest('hex')}`;
}
