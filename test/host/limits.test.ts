/**
 * The identity / limit matrix over real HTTP: exact status, body and the four headers.
 */
import t from 'tap';
import type { Test } from 'tap';
import Koa from 'koa';
import { createExplorer, RATE_LIMITED_MESSAGE } from '../../lib/index.ts';
import {
  ANONYMOUS_PLAN,
  explorerMiddleware,
  LIMITER_BUSY_MESSAGE,
  LOCAL_PLAN,
  memoryLimiterStore,
  parseKeysConfig,
  planWindow,
} from '../../host/index.ts';
import type { ExplorerMiddlewareOptions, LimiterStore, Plan } from '../../host/index.ts';
import { sha256 } from '../../host/plans.ts';
import { fixtureChains, limitHeaders, listen, request } from './helpers.ts';
import type { Listening, Reply } from './helpers.ts';

const { chain1, facts } = await fixtureChains();
const explorer = createExplorer({ chains: { '1': chain1 } });

const ANON: Plan = { name: 'anon', requestsPerSecond: 2, credits: 1000, creditPeriod: 'day' };
const SMALL: Plan = { name: 'small', requestsPerSecond: 3, credits: 1000, creditPeriod: 'day' };
const POOR: Plan = { name: 'poor', requestsPerSecond: 100, credits: 2, creditPeriod: 'month' };
const BIG: Plan = { name: 'big', requestsPerSecond: 1000, credits: 100_000, creditPeriod: 'month' };
const keys = [
  { key: 'key-small', plan: SMALL },
  { key: 'key-poor', plan: POOR },
  { sha256: sha256('key-hashed').toString('hex'), plan: BIG },
  { key: 'key-big', plan: BIG },
];

async function serve(t: Test, options: ExplorerMiddlewareOptions = {}): Promise<Listening> {
  const app = new Koa();
  app.use(explorerMiddleware(explorer, { keys, anonymousPlan: ANON, ...options }));
  const s = await listen(app);
  t.teardown(() => s.close());
  return s;
}

const UNAUTHORIZED_MISSING = { message: 'API key required' };
const UNAUTHORIZED_INVALID = { message: 'Invalid API key' };

function headersOf(reply: Reply) {
  const h = limitHeaders(reply);
  return { limit: h.limit, remaining: h.remaining, credits: h.credits };
}
function resetOk(t: Test, reply: Reply, max = 1000) {
  const { reset } = limitHeaders(reply);
  t.ok(reset >= 0 && reset <= max, `x-ratelimit-reset in [0, ${max}] ms (${reset})`);
}

t.test('identity matrix', async (t) => {
  const s = await serve(t);
  const cases: [string, string, Record<string, string>, number, unknown, ReturnType<typeof headersOf>][] = [
    ['no key, per-instance form: anonymous', '/api/v2/blocks', {}, 200, undefined, { limit: 2, remaining: 1, credits: 999 }],
    ['no key, multichain form: 401', '/1/api/v2/blocks', {}, 401, UNAUTHORIZED_MISSING, { limit: 2, remaining: 0, credits: 998 }],
    ['bad key (header): 401', '/api/v2/blocks', { 'x-api-key': 'nope' }, 401, UNAUTHORIZED_INVALID, { limit: 2, remaining: 1, credits: 997 }],
    ['Bearer', '/1/api/v2/blocks', { authorization: 'Bearer key-small' }, 200, undefined, { limit: 3, remaining: 2, credits: 999 }],
    ['query apikey', '/1/api/v2/blocks?apikey=key-small', {}, 200, undefined, { limit: 3, remaining: 1, credits: 998 }],
    ['x-api-key header', '/api/v2/blocks', { 'x-api-key': 'key-small' }, 200, undefined, { limit: 3, remaining: 0, credits: 997 }],
    ['key given as sha256 in the keys', '/1/api/v2/blocks', { 'x-api-key': 'key-hashed' }, 200, undefined, { limit: 1000, remaining: 999, credits: 99_999 }],
    ['bad Bearer: 401', '/1/api/v2/blocks', { authorization: 'Bearer nope' }, 401, UNAUTHORIZED_INVALID, { limit: 2, remaining: 0, credits: 997 }],
  ];
  // anonymous requests share one IP: the third anonymous one uses a fresh window after the wait below
  for (const [name, path, headers, status, body, expected] of cases.slice(0, 3)) {
    if (name.startsWith('bad key')) await new Promise((r) => setTimeout(r, 1100));
    const reply = await request(`${s.url}${path}`, { headers });
    t.equal(reply.status, status, `${name}: status`);
    if (body !== undefined) t.same(reply.json, body, `${name}: body`);
    t.same(headersOf(reply), expected, `${name}: headers`);
    resetOk(t, reply);
  }
  for (const [name, path, headers, status, body, expected] of cases.slice(3)) {
    const reply = await request(`${s.url}${path}`, { headers });
    t.equal(reply.status, status, `${name}: status`);
    if (body !== undefined) t.same(reply.json, body, `${name}: body`);
    if (!name.startsWith('bad Bearer')) t.same(headersOf(reply), expected, `${name}: headers`);
    else t.equal(limitHeaders(reply).limit, 2, `${name}: counted on the anonymous plan`);
    resetOk(t, reply);
  }
});

t.test('key precedence: Bearer, then x-api-key, then apikey', async (t) => {
  const s = await serve(t);
  const get = (headers: Record<string, string>, query = '') => request(`${s.url}/1/api/v2/blocks${query}`, { headers });
  t.equal((await get({ authorization: 'Bearer key-big', 'x-api-key': 'nope' }, '?apikey=nope')).status, 200);
  t.equal((await get({ authorization: 'Bearer nope', 'x-api-key': 'key-big' })).status, 401);
  t.equal((await get({ 'x-api-key': 'key-big' }, '?apikey=nope')).status, 200);
  t.equal((await get({ 'x-api-key': 'nope' }, '?apikey=key-big')).status, 401);
  t.equal((await get({ 'x-api-key': '   ' }, '?apikey=key-big')).status, 200, 'whitespace-only is absent');
  t.equal((await get({ authorization: 'Basic a2V5LWJpZw==' }, '?apikey=key-big')).status, 200, 'only Bearer counts');
});

t.test('under, at and over the rate; 429 spends no credits', async (t) => {
  const s = await serve(t);
  const get = () => request(`${s.url}/api/v2/blocks`, { headers: { authorization: 'Bearer key-small' } });
  const replies = [await get(), await get(), await get(), await get()];
  t.same(replies.map((r) => r.status), [200, 200, 200, 429]);
  t.same(replies.map(headersOf), [
    { limit: 3, remaining: 2, credits: 999 },
    { limit: 3, remaining: 1, credits: 998 },
    { limit: 3, remaining: 0, credits: 997 },
    { limit: 3, remaining: 0, credits: 997 },
  ]);
  t.same(replies[3]?.json, { message: RATE_LIMITED_MESSAGE });
  for (const r of replies) resetOk(t, r);
  await new Promise((r) => setTimeout(r, limitHeaders(replies[3] as Reply).reset + 50));
  const after = await get();
  t.equal(after.status, 200, 'admitted again after x-ratelimit-reset ms');
  t.same(headersOf(after), { limit: 3, remaining: 2, credits: 996 });
});

t.test('out of credits: 402', async (t) => {
  const s = await serve(t);
  const get = () => request(`${s.url}/1/api/v2/blocks?apikey=key-poor`);
  const replies = [await get(), await get(), await get()];
  t.same(replies.map((r) => r.status), [200, 200, 402]);
  t.same(replies.map((r) => limitHeaders(r).credits), [1, 0, 0]);
  t.same(replies[2]?.json, { error: 'Out of credits' }, "the multichain form: the hosted gateway's body");
  t.same(headersOf(replies[2] as Reply), { limit: 100, remaining: 97, credits: 0 });
  const instance = await request(`${s.url}/api/v2/blocks?apikey=key-poor`);
  t.same([instance.status, instance.json], [402, { message: 'Out of credits' }], 'the per-instance form keeps its body');
  // a monthly plan: the period ends at the next first of a month (UTC)
  t.ok(limitHeaders(replies[2] as Reply).reset <= 1000);
});

t.test('endpoint costs', async (t) => {
  const s = await serve(t, { costs: { blocks: 5 } });
  const blocks = await request(`${s.url}/api/v2/blocks?apikey=key-big`);
  const block = await request(`${s.url}/api/v2/blocks/1?apikey=key-big`);
  t.same([limitHeaders(blocks).credits, limitHeaders(block).credits], [99_995, 99_994]);
});

t.test('limit headers on 401, 403, 404, 405, 422, 429', async (t) => {
  const s = await serve(t, { restrictedAddresses: [facts.hotAddress], secretKey: 's3cret' });
  const cases: [string, RequestInit, number][] = [
    ['/1/api/v2/blocks', {}, 401],
    [`/api/v2/addresses/${facts.hotAddress}/tokens?apikey=key-big`, {}, 403],
    ['/api/v2/blocks/999999?apikey=key-big', {}, 404],
    ['/9/api/v2/blocks?apikey=key-big', {}, 404],
    ['/api/v2/blocks?apikey=key-big', { method: 'POST' }, 405],
    ['/api/v2/transactions/0x?apikey=key-big', {}, 422],
  ];
  for (const [path, init, status] of cases) {
    const reply = await request(`${s.url}${path}`, init);
    t.equal(reply.status, status, path);
    const h = limitHeaders(reply);
    t.ok(h.limit > 0 && h.remaining >= 0 && h.reset >= 0 && h.credits >= 0, `${status}: the four headers (${JSON.stringify(h)})`);
  }
  const anon = () => request(`${s.url}/api/v2/blocks`);
  let last = await anon();
  for (let i = 0; i < 3 && last.status !== 429; i++) last = await anon();
  t.equal(last.status, 429);
  t.ok(limitHeaders(last).limit === 2 && limitHeaders(last).remaining === 0 && limitHeaders(last).credits >= 0);
});

t.test('restricted addresses need the secret key', async (t) => {
  const s = await serve(t, { restrictedAddresses: [facts.hotAddress.toUpperCase().replace('0X', '0x')], secretKey: 's3cret' });
  const path = `/api/v2/addresses/${facts.hotAddress}/tokens`;
  const forbidden = await request(`${s.url}${path}?apikey=key-big`);
  t.equal(forbidden.status, 403);
  t.same(forbidden.json, { message: 'Restricted access' });
  t.equal((await request(`${s.url}${path}?apikey=key-big&key=wrong`)).status, 403);
  t.equal((await request(`${s.url}${path.toLowerCase()}?apikey=key-big`)).status, 403, 'any case');
  t.equal((await request(`${s.url}${path}?apikey=key-big&key=s3cret`)).status, 200);
  t.equal((await request(`${s.url}/api/v2/addresses/${facts.eoas.alice}/tokens?apikey=key-big`)).status, 200);
});

t.test('keys are never echoed', async (t) => {
  const s = await serve(t);
  const reply = await request(`${s.url}/api/v2/transactions?apikey=key-big&key=key-big`);
  t.equal(reply.status, 200);
  t.notOk(reply.text.includes('key-big'), 'not in the body (next_page_params)');
  t.notOk([...reply.headers.values()].some((v) => v.includes('key-big')), 'not in a header');
});

t.test('a burst never admits more than the limit per window', async (t) => {
  const s = await serve(t, { anonymousPlan: { name: 'burst', requestsPerSecond: 10, credits: 1000, creditPeriod: 'day' } });
  const replies = await Promise.all(
    Array.from({ length: 40 }, async () => {
      const reply = await request(`${s.url}/api/v2/blocks/1`);
      return { reply, windowEnd: Date.now() + limitHeaders(reply).reset };
    }),
  );
  const admitted = replies.filter((r) => r.reply.status === 200);
  t.equal(admitted.length + replies.filter((r) => r.reply.status === 429).length, 40, 'only 200 and 429');
  t.ok(admitted.length >= 10, `at least one full window admitted (${admitted.length})`);
  // group admitted requests by the window they fell in (window ends are ≥ 1 s apart)
  const ends = admitted.map((r) => r.windowEnd).sort((a, b) => a - b);
  const windows: number[][] = [];
  for (const end of ends) {
    const current = windows.at(-1);
    if (current && end - (current[0] ?? 0) < 500) current.push(end);
    else windows.push([end]);
  }
  for (const w of windows) t.ok(w.length <= 10, `≤ 10 admitted in a window (${w.length})`);
  const remaining = admitted.map((r) => limitHeaders(r.reply).remaining).sort();
  t.same(remaining.slice(0, 10), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].slice(0, Math.min(10, remaining.length)).sort(), 'each admitted request has its own slot');
});

t.test('a failing or slow limiter store: never served unlimited, a JSON 503 to retry', async (t) => {
  const failing: LimiterStore = {
    consume: () => Promise.reject(new Error('store down')),
    peek: () => Promise.reject(new Error('store down')),
  };
  const slow: LimiterStore = {
    consume: () => new Promise(() => {}),
    peek: () => new Promise(() => {}),
  };
  for (const [name, limiter] of [['failing', failing], ['slow', slow]] as const) {
    const s = await serve(t, { limiter, limiterTimeoutMs: 50 });
    for (const path of ['/1/api/v2/blocks?apikey=key-small', '/1/api/v2/blocks']) {
      const reply = await request(`${s.url}${path}`);
      t.equal(reply.status, 503, `${name} ${path}: refused`);
      t.same(reply.json, { message: LIMITER_BUSY_MESSAGE }, `${name} ${path}: JSON body`);
      t.equal(reply.headers.get('retry-after'), '1', `${name} ${path}: retry-after`);
      t.same(limitHeaders(reply), { limit: -1, remaining: -1, reset: -1, credits: -1 }, `${name} ${path}: -1 only on an error`);
    }
  }
});

t.test('default anonymous plan: 300 requests per 60-second window, a page burst admitted', async (t) => {
  const app = new Koa();
  app.use(explorerMiddleware(explorer)); // no keys, no plans: the defaults
  const s = await listen(app);
  t.teardown(() => s.close());
  const { requests, windowSeconds } = planWindow(ANONYMOUS_PLAN);
  t.same([requests, windowSeconds], [300, 60], "Blockscout's per-instance default per IP");
  // a page load: 40 requests at once, all admitted
  const page = await Promise.all(Array.from({ length: 40 }, () => request(`${s.url}/api/v2/blocks/1`)));
  t.same(new Set(page.map((r) => r.status)), new Set([200]), 'a 40-request page burst is admitted');
  t.same(page.map((r) => limitHeaders(r).remaining).sort((a, b) => a - b), Array.from({ length: 40 }, (_v, i) => 260 + i));
  for (const r of page) {
    const { limit, reset } = limitHeaders(r);
    t.ok(limit === 300 && reset > 0 && reset <= 60_000, `limit 300, reset within the minute (${reset} ms)`);
  }
  const rest = await Promise.all(Array.from({ length: 261 }, () => request(`${s.url}/api/v2/blocks/1`)));
  const statuses = rest.map((r) => r.status);
  t.equal(statuses.filter((x) => x === 200).length, 260, 'the rest of the 300 admitted');
  t.equal(statuses.filter((x) => x === 429).length, 1, 'the 301st refused');
  const refused = rest.find((r) => r.status === 429) as Reply;
  t.same(refused.json, { message: RATE_LIMITED_MESSAGE });
  t.notOk(refused.text.includes('blockscout'), 'the 429 names no other service');
});

t.test('the local plan (scoutkit demo, npm start): a developer is never throttled', async (t) => {
  const s = await serve(t, { anonymousPlan: LOCAL_PLAN });
  const replies = await Promise.all(Array.from({ length: 500 }, () => request(`${s.url}/api/v2/blocks/1`)));
  t.same(new Set(replies.map((r) => r.status)), new Set([200]), '500 requests at once, all served');
  t.same(new Set(replies.map((r) => limitHeaders(r).limit)), new Set([planWindow(LOCAL_PLAN).requests]));
  t.ok(planWindow(LOCAL_PLAN).requests >= 1_000_000 && LOCAL_PLAN.credits >= 1_000_000_000, 'limits no one reaches on a laptop');
});

t.test('a plan window longer than a second', async (t) => {
  const s = await serve(t, { anonymousPlan: { name: 'slow', requests: 3, windowSeconds: 5, credits: 100, creditPeriod: 'day' } });
  const replies = [];
  for (let i = 0; i < 4; i++) replies.push(await request(`${s.url}/api/v2/blocks/1`));
  t.same(replies.map((r) => r.status), [200, 200, 200, 429]);
  t.same(replies.map((r) => limitHeaders(r).limit), [3, 3, 3, 3], 'x-ratelimit-limit: requests per window');
  t.same(replies.map((r) => limitHeaders(r).remaining), [2, 1, 0, 0]);
  for (const r of replies) resetOk(t, r, 5000);
  t.ok(limitHeaders(replies[3] as Reply).reset > 1000, 'x-ratelimit-reset counts to the end of the 5 s window');
});

t.test('the 429 message is configurable (option and keys file)', async (t) => {
  const message = 'Slow down, friend';
  const config = parseKeysConfig({ keys: [], anonymous: { requests: 1, windowSeconds: 60, credits: 10 }, rateLimitMessage: message });
  t.equal(config.rateLimitMessage, message);
  const s = await serve(t, { ...config });
  await request(`${s.url}/api/v2/blocks/1`);
  const refused = await request(`${s.url}/api/v2/blocks/1`);
  t.equal(refused.status, 429);
  t.same(refused.json, { message });
  t.throws(() => parseKeysConfig({ keys: [], rateLimitMessage: '' }), /rateLimitMessage must be a non-empty string/);
});

t.test('the memory store forgets ended periods and keeps monthly periods past 24.8 days', async (t) => {
  const store = memoryLimiterStore();
  const endsAt = Date.now() + 31 * 24 * 3600 * 1000;
  const first = await store.consume({ key: 'k', limit: 3, cost: 2, window: { endsAt } });
  const second = await store.consume({ key: 'k', limit: 3, cost: 2, window: { endsAt } });
  t.same([first.admitted, first.remaining, second.admitted], [true, 1, false]);
  t.ok(Math.abs(first.resetMs - 31 * 24 * 3600 * 1000) < 1000);
  const peek = await store.peek({ key: 'k', limit: 3, cost: 1, window: { endsAt } });
  t.equal(peek.remaining, 0);
});

t.test('the memory store answers synchronously and as its promises do; a window ends and starts afresh', async (t) => {
  const store = memoryLimiterStore();
  t.ok(store.consumeNow && store.peekNow, 'synchronous answers');
  const window = { key: 'w', limit: 2, cost: 1, window: { seconds: 1 } };
  const first = store.consumeNow?.(window);
  const second = await store.consume(window);
  const third = store.consumeNow?.(window);
  t.same([first?.admitted, first?.remaining, second.admitted, second.remaining, third?.admitted, third?.remaining], [true, 1, true, 0, false, 0]);
  t.ok(third !== undefined && third.resetMs > 0 && third.resetMs <= 1000, `reset within the window (${third?.resetMs})`);
  t.same(await store.peek(window), store.peekNow?.(window), 'peek, either way');
  t.same(store.peekNow?.({ ...window, key: 'other' }), { admitted: true, remaining: 2, resetMs: 0 }, 'an unseen bucket: the whole limit');
  t.equal(store.consumeNow?.({ ...window, limit: 5 }).remaining, 4, 'another limit is another bucket');
  await new Promise((resolve) => setTimeout(resolve, 1050));
  const fresh = store.consumeNow?.(window);
  t.same([fresh?.admitted, fresh?.remaining], [true, 1], 'the next window starts at its first hit');
});

t.test('a valid key is remembered; other keys are still refused', async (t) => {
  // refused keys are counted as anonymous: a plan that admits them all, so each is a 401
  const s = await serve(t, { anonymousPlan: BIG });
  for (let i = 0; i < 3; i++) t.equal((await request(`${s.url}/api/v2/blocks/1`, { headers: { 'x-api-key': 'key-big' } })).status, 200);
  t.equal((await request(`${s.url}/api/v2/blocks/1`, { headers: { 'x-api-key': 'key-hashed' } })).status, 200, 'a key granted by its digest');
  t.equal((await request(`${s.url}/api/v2/blocks/1`, { headers: { 'x-api-key': 'key-hashed' } })).status, 200, 'and again, remembered');
  for (const wrong of ['key-bi', 'key-big ', 'KEY-BIG', 'key-bigg']) {
    const reply = await request(`${s.url}/api/v2/blocks/1`, { headers: { 'x-api-key': wrong } });
    t.equal(reply.status, wrong === 'key-big ' ? 200 : 401, `${JSON.stringify(wrong)}`);
  }
});

t.test('keys file parsing', async (t) => {
  const config = parseKeysConfig({
    plans: { pro: { requestsPerSecond: 50, credits: 1_000_000 } },
    anonymous: { requestsPerSecond: 1, credits: 100, creditPeriod: 'day' },
    keys: [
      { key: 'a', plan: 'pro', name: 'alice' },
      { sha256: 'AB'.repeat(32) },
    ],
    restrictedAddresses: ['0x0000000000000000000000000000000000000001'],
    secretKey: 'sss',
  });
  // `requestsPerSecond` is read as before: a one-second window
  t.same(config.keys[0], { key: 'a', plan: { name: 'pro', requests: 50, windowSeconds: 1, credits: 1_000_000, creditPeriod: 'month' }, name: 'alice' });
  t.same(config.keys[1], { sha256: 'ab'.repeat(32), plan: { name: 'free', requests: 5, windowSeconds: 1, credits: 100_000, creditPeriod: 'day' } });
  t.same(config.anonymousPlan && planWindow(config.anonymousPlan), { requests: 1, windowSeconds: 1 });
  t.equal(config.secretKey, 'sss');
  t.throws(() => parseKeysConfig({ keys: [{ key: 'a', plan: 'gold' }] }), /unknown plan "gold"/);
  t.throws(() => parseKeysConfig({ keys: [{ plan: 'free' }] }), /needs "key"/);
  t.throws(() => parseKeysConfig({ plans: { x: { requestsPerSecond: 0, credits: 1 } }, keys: [] }), /positive integer/);
  const windowed = parseKeysConfig({ plans: { minute: { requests: 300, windowSeconds: 60, credits: 10 } }, keys: [{ key: 'm', plan: 'minute' }] });
  t.same(windowed.keys[0]?.plan, { name: 'minute', requests: 300, windowSeconds: 60, credits: 10, creditPeriod: 'month' });
  const perSecond = parseKeysConfig({ plans: { s: { requests: 7, credits: 10 } }, keys: [] , anonymous: 's' });
  t.same(perSecond.anonymousPlan && planWindow(perSecond.anonymousPlan), { requests: 7, windowSeconds: 1 }, 'windowSeconds defaults to 1');
  t.throws(() => parseKeysConfig({ plans: { x: { requests: 5, requestsPerSecond: 5, credits: 1 } }, keys: [] }), /give "requests"/);
  t.throws(() => parseKeysConfig({ plans: { x: { credits: 1 } }, keys: [] }), /give "requests"/);
  t.throws(() => parseKeysConfig({ plans: { x: { requestsPerSecond: 5, windowSeconds: 60, credits: 1 } }, keys: [] }), /"windowSeconds" goes with "requests"/);
  t.throws(() => parseKeysConfig({ plans: { x: { requests: 5, windowSeconds: 0, credits: 1 } }, keys: [] }), /windowSeconds" must be a positive integer/);
  t.throws(() => parseKeysConfig({ plans: { x: { requests: 5, windowSeconds: 86_401, credits: 1 } }, keys: [] }), /at most 86400/);
});
