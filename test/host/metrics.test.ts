/**
 * /metrics: Prometheus text after known requests, parsed line by line (not a snapshot) —
 * requests by endpoint and status, latency histograms, limiter rejections, store errors,
 * the indexer's head and lag; a registry per server; the path option and the CLI flags.
 */
import Koa from 'koa';
import t from 'tap';
import { createMemoryStore } from '../../adapters/memory/index.ts';
import { startAnvil } from '../../demo/anvil.ts';
import { parseDemoArgs } from '../../host/commands/demo.ts';
import { parseServeArgs } from '../../host/cli.ts';
import { createMetrics, createServer, explorerMiddleware } from '../../host/index.ts';
import type { LimiterStore, Plan } from '../../host/index.ts';
import { createExplorer } from '../../lib/index.ts';
import type { DataSource } from '../../lib/index.ts';
import { createRpcChainSource } from '../../adapters/rpc/index.ts';
import { createIndexer } from '../../lib/indexer/index.ts';
import { fixtureChains, listen, request } from './helpers.ts';

const { chain1, chain5, facts } = await fixtureChains();

interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** The samples of a Prometheus text exposition (comments skipped). */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: \d+)?$/.exec(line);
    if (!m) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1] ?? ''] = l[2] ?? '';
    const raw = m[3] ?? '';
    samples.push({ name: m[1] ?? '', labels, value: raw === '+Inf' ? Infinity : Number(raw) });
  }
  return samples;
}

/** The samples named `name` whose labels include `labels`. */
function find(samples: readonly Sample[], name: string, labels: Readonly<Record<string, string>> = {}): Sample[] {
  return samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

/** One sample's value; 0 when the series does not exist yet (a counter never incremented). */
function value(samples: readonly Sample[], name: string, labels: Readonly<Record<string, string>>): number {
  const found = find(samples, name, labels);
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)}: ${found.length} series`);
  return found[0]?.value ?? 0;
}

async function scrapeSamples(url: string): Promise<Sample[]> {
  const reply = await request(url);
  if (reply.status !== 200) throw new Error(`scrape ${url}: ${reply.status}`);
  return parseExposition(reply.text);
}

const plan = (name: string, requestsPerSecond: number, credits: number): Plan => ({ name, requestsPerSecond, credits, creditPeriod: 'day' });

t.test('requests, latency, limiter rejections and store errors, as scraped', async (t) => {
  const broken: DataSource = { ...chain5, listBlocks: () => Promise.reject(new Error('disk on fire')) };
  const storeErrors: string[] = [];
  const server = createServer({
    chains: { '1': chain1, '5': broken },
    keys: [
      { key: 'k-plenty', plan: plan('plenty', 1000, 1000) },
      { key: 'k-one-credit', plan: plan('one-credit', 1000, 1) },
      { key: 'k-slow', plan: plan('slow', 1, 1000) },
    ],
    anonymousPlan: plan('anon', 1000, 1000),
    log: false,
    onStoreError: (e) => storeErrors.push(e instanceof Error ? e.message : String(e)),
  });
  const { url } = await server.listen(0);
  t.teardown(() => server.close());

  const statuses = async (paths: readonly string[], init: RequestInit = {}) =>
    Promise.all(paths.map(async (p) => (await request(`${url}${p}`, init)).status));

  t.same(await statuses(['/api/v2/blocks', '/api/v2/blocks?items_count=2', `/api/v2/blocks/${facts.headBlockNumber}`]), [200, 200, 200]);
  t.same(await statuses(['/api/v2/blocks?items_count=x', '/api/v2/blocks?bogus=1']), [422, 422]);
  t.same(await statuses(['/api/v2/transactions/0xabc']), [422]);
  const withKey = { headers: { authorization: 'Bearer k-plenty' } };
  t.same(await statuses(['/5/api/v2/blocks', '/5/api/v2/blocks'], withKey), [503, 503], 'the broken store answers 503');
  t.same(await statuses(['/999/api/v2/blocks'], withKey), [404]);
  t.same(await statuses(['/health', '/nothing/here', '/also/nothing']), [200, 404, 404]);
  const credits = { headers: { 'x-api-key': 'k-one-credit' } };
  t.same(await statuses(['/1/api/v2/blocks'], credits), [200]);
  t.same(await statuses(['/1/api/v2/blocks', '/1/api/v2/blocks'], credits), [402, 402]);
  // one request per second: of five sent at once, the first passes and the others are refused
  const burst = await statuses(Array(5).fill('/1/api/v2/blocks'), { headers: { authorization: 'Bearer k-slow' } });
  const rate429 = burst.filter((s) => s === 429).length;
  t.ok(rate429 >= 1, `the burst met the rate limit (${burst.join(',')})`);

  const reply = await request(`${url}/metrics`);
  t.equal(reply.status, 200, 'no key needed');
  t.match(reply.headers.get('content-type'), /^text\/plain; version=0\.0\.4/);
  t.equal(reply.headers.get('x-ratelimit-limit'), null, 'not behind the limiter');
  const m = parseExposition(reply.text);

  const requests = 'scoutkit_http_requests_total';
  t.equal(value(m, requests, { endpoint: 'blocks', chain: '1', status: '200' }), 2 + 1 + burst.filter((s) => s === 200).length);
  t.equal(value(m, requests, { endpoint: 'block', chain: '1', status: '200' }), 1);
  t.equal(value(m, requests, { endpoint: 'blocks', chain: '1', status: '422' }), 2);
  t.equal(value(m, requests, { endpoint: 'transaction', chain: '1', status: '422' }), 1);
  t.equal(value(m, requests, { endpoint: 'blocks', chain: '5', status: '503' }), 2);
  t.equal(value(m, requests, { endpoint: 'blocks', chain: 'unknown', status: '404' }), 1, 'an unconfigured chain id is not a label');
  t.equal(value(m, requests, { endpoint: 'blocks', chain: '1', status: '402' }), 2);
  t.equal(value(m, requests, { endpoint: 'blocks', chain: '1', status: '429' }), rate429);
  t.equal(value(m, requests, { endpoint: 'health', status: '200' }), 1);
  t.equal(value(m, requests, { endpoint: 'unmatched', status: '404' }), 2, 'unmatched paths share one label');
  t.notOk(
    find(m, requests).some((s) => Object.values(s.labels).some((v) => v.includes('/'))),
    'no raw path in any label',
  );

  t.equal(value(m, 'scoutkit_limiter_rejections_total', { kind: 'credits', caller: 'key' }), 2);
  t.equal(value(m, 'scoutkit_limiter_rejections_total', { kind: 'rate', caller: 'key' }), rate429);
  t.equal(value(m, 'scoutkit_limiter_rejections_total', { kind: 'rate', caller: 'anonymous' }), 0);
  t.equal(value(m, 'scoutkit_store_errors_total', { endpoint: 'blocks', chain: '5' }), 2);
  t.same(storeErrors, ['disk on fire', 'disk on fire'], 'the cause goes to onStoreError');

  // the histogram of one endpoint: cumulative buckets, +Inf = count = the requests counted
  const hist = 'scoutkit_http_request_duration_seconds';
  const blocksTotal = find(m, requests, { endpoint: 'blocks' }).reduce((sum, s) => sum + s.value, 0);
  const buckets = find(m, `${hist}_bucket`, { endpoint: 'blocks' }).map((s) => ({ le: Number(s.labels.le === '+Inf' ? Infinity : s.labels.le), n: s.value }));
  t.ok(buckets.length >= 5, 'several buckets');
  t.ok(buckets.every((b, i) => i === 0 || (b.le > (buckets[i - 1]?.le ?? 0) && b.n >= (buckets[i - 1]?.n ?? 0))), 'buckets ascend and accumulate');
  t.equal(buckets.at(-1)?.le, Infinity);
  t.equal(buckets.at(-1)?.n, blocksTotal);
  t.equal(value(m, `${hist}_count`, { endpoint: 'blocks' }), blocksTotal);
  t.ok(value(m, `${hist}_sum`, { endpoint: 'blocks' }) > 0, 'time was measured');

  t.ok(value(m, 'scoutkit_process_resident_memory_bytes', {}) > 0, 'process metrics');
  const after = await scrapeSamples(`${url}/metrics`);
  t.equal(value(after, requests, { endpoint: 'metrics', status: '200' }), 1, 'the scrape itself is counted, under its own label');
  t.equal((await request(`${url}/metrics`, { method: 'POST' })).status, 405);
});

t.test('a registry per server: two servers in one process count apart', async (t) => {
  const a = createServer({ chains: { '1': chain1 }, log: false });
  const b = createServer({ chains: { '1': chain1 }, log: false });
  const [la, lb] = [await a.listen(0), await b.listen(0)];
  t.teardown(async () => {
    await a.close();
    await b.close();
  });
  await request(`${la.url}/api/v2/blocks`);
  await request(`${la.url}/api/v2/blocks`);
  await request(`${lb.url}/api/v2/blocks`);
  const key = { endpoint: 'blocks', chain: '1', status: '200' };
  t.equal(value(await scrapeSamples(`${la.url}/metrics`), 'scoutkit_http_requests_total', key), 2);
  t.equal(value(await scrapeSamples(`${lb.url}/metrics`), 'scoutkit_http_requests_total', key), 1);
  t.not(a.metrics?.registry, b.metrics?.registry);
});

t.test('a limiter store that fails: the 503 counts as a busy rejection', async (t) => {
  const failing: LimiterStore = {
    consume: () => Promise.reject(new Error('store down')),
    peek: () => Promise.reject(new Error('store down')),
  };
  const server = createServer({ chains: { '1': chain1 }, log: false, limiter: failing, metrics: { processMetrics: false } });
  const { url } = await server.listen(0);
  t.teardown(() => server.close());
  t.equal((await request(`${url}/api/v2/blocks`)).status, 503);
  t.equal((await request(`${url}/api/v2/blocks`)).status, 503);
  const m = await scrapeSamples(`${url}/metrics`);
  t.equal(value(m, 'scoutkit_limiter_rejections_total', { kind: 'busy', caller: 'anonymous' }), 2);
  t.equal(value(m, 'scoutkit_http_requests_total', { endpoint: 'blocks', chain: '1', status: '503' }), 2);
});

t.test('the path is an option, and metrics can be turned off', async (t) => {
  const moved = createServer({ chains: { '1': chain1 }, log: false, metrics: { path: '/internal/metrics', processMetrics: false } });
  const off = createServer({ chains: { '1': chain1 }, log: false, metrics: false });
  const [lm, lo] = [await moved.listen(0), await off.listen(0)];
  t.teardown(async () => {
    await moved.close();
    await off.close();
  });
  t.equal((await request(`${lm.url}/metrics`)).status, 404);
  const scraped = await scrapeSamples(`${lm.url}/internal/metrics`);
  t.equal(find(scraped, 'scoutkit_process_resident_memory_bytes').length, 0, 'process metrics off');
  t.equal(value(scraped, 'scoutkit_http_requests_total', { endpoint: 'unmatched', status: '404' }), 1);
  t.equal((await request(`${lo.url}/metrics`)).status, 404);
  t.equal(off.metrics, undefined);
  for (const path of ['metrics', '/', '/health', '/api/v2/metrics', '/1/api/v2/x']) {
    t.throws(() => createServer({ chains: { '1': chain1 }, log: false, metrics: { path } }), /metrics path/, path);
  }
});

t.test('mounted in another app, the middleware leaves /metrics alone', async (t) => {
  const app = new Koa();
  app.use(explorerMiddleware(createExplorer({ chains: { '1': chain1 } })));
  app.use((ctx) => {
    ctx.body = `theirs: ${ctx.path}`;
  });
  const l = await listen(app);
  t.teardown(() => l.close());
  t.equal((await request(`${l.url}/metrics`)).text, 'theirs: /metrics');
});

t.test('createMetrics in your own app (as docs/operations.md shows); escaped errors count with the status Koa sends', async (t) => {
  const metrics = createMetrics({ chainIds: ['1'], processMetrics: false });
  const broken: DataSource = { ...chain1, listBlocks: () => Promise.reject(new Error('gone')) };
  const app = new Koa();
  app.silent = true;
  app.use(metrics.observe((ctx) => (ctx.path.startsWith('/teapot') ? 'teapot' : undefined)));
  app.use(explorerMiddleware(createExplorer({ chains: { '1': broken }, onError: metrics.storeError }), { anonymousPlan: plan('anon', 1000, 1000) }));
  const scrape = metrics.serve();
  app.use((ctx, next) => {
    if (ctx.path === '/internal/metrics') return scrape(ctx, next);
    if (ctx.path === '/teapot') ctx.throw(418, 'short and stout');
    if (ctx.path === '/crash') throw new Error('boom');
    ctx.body = 'fine';
    return next();
  });
  const l = await listen(app);
  t.teardown(() => l.close());
  const paths = ['/teapot', '/crash', '/x', '/api/v2/blocks'];
  t.same(await Promise.all(paths.map(async (p) => (await request(`${l.url}${p}`)).status)), [418, 500, 200, 503]);
  const m = await scrapeSamples(`${l.url}/internal/metrics`);
  t.equal(value(m, 'scoutkit_http_requests_total', { endpoint: 'teapot', status: '418' }), 1);
  t.equal(value(m, 'scoutkit_http_requests_total', { endpoint: 'unmatched', status: '500' }), 1);
  t.equal(value(m, 'scoutkit_http_requests_total', { endpoint: 'unmatched', status: '200' }), 1);
  t.equal(value(m, 'scoutkit_http_requests_total', { endpoint: 'unmatched', status: '404' }), 0, 'not the 404 Koa holds before handling the error');
  t.equal(value(m, 'scoutkit_http_requests_total', { endpoint: 'blocks', chain: '1', status: '503' }), 1);
  t.equal(value(m, 'scoutkit_store_errors_total', { endpoint: 'blocks', chain: '1' }), 1);
});

t.test('serve and demo flags', async (t) => {
  const base = ['--db', 'memory:'];
  t.equal(parseServeArgs(base).metricsPath, undefined, 'default: the server decides (/metrics)');
  t.equal(parseServeArgs([...base, '--metrics-path', '/_/metrics']).metricsPath, '/_/metrics');
  t.equal(parseServeArgs([...base, '--no-metrics']).metricsPath, false);
  t.throws(() => parseServeArgs([...base, '--no-metrics', '--metrics-path', '/m']), /not both/);
  t.throws(() => parseServeArgs([...base, '--metrics-path', 'm']), /--metrics-path/);
  t.equal(parseDemoArgs(['--no-metrics']).metricsPath, false);
  t.equal(parseDemoArgs(['--metrics-path', '/m']).metricsPath, '/m');
});

t.test('an indexer in the same process feeds head and lag', async (t) => {
  const anvil = await startAnvil();
  t.teardown(() => anvil.stop());
  const mined = 7;
  await fetch(anvil.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_mine', params: [`0x${mined.toString(16)}`] }),
  });
  const store = createMemoryStore();
  const server = createServer({ chains: { '31337': store }, log: false, metrics: { processMetrics: false } });
  const { url } = await server.listen(0);
  t.teardown(() => server.close());
  const before = await scrapeSamples(`${url}/metrics`);
  t.equal(find(before, 'scoutkit_indexer_head_block').length, 0, 'no indexer, no indexer series');

  const metrics = server.metrics;
  if (!metrics) throw new Error('metrics are on by default');
  const indexer = createIndexer({ source: createRpcChainSource(anvil.url), sink: store, batchSize: 3, onEvent: metrics.indexerEvents() });
  const summary = await indexer.run({ reset: true });
  t.equal(summary.indexedHead, mined);
  const m = await scrapeSamples(`${url}/metrics`);
  t.equal(value(m, 'scoutkit_indexer_head_block', { chain: '31337' }), mined, 'the chain id comes from the indexer');
  t.equal(value(m, 'scoutkit_indexer_node_head_block', { chain: '31337' }), mined);
  t.equal(value(m, 'scoutkit_indexer_lag_blocks', { chain: '31337' }), 0);
  t.equal(value(m, 'scoutkit_indexer_reorgs_total', { chain: '31337' }), 0);
});
