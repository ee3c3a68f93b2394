/**
 * CORS in a real browser (Debian's chromium, driven by playwright-core, as the docs page's
 * test): a page served from another origin (a second tiny HTTP server on another port) calls
 * scoutkit with fetch: API v2 without a key and with one (`x-api-key`: a preflight first), the
 * JSON-RPC POST (a preflight for its JSON content type), and a 429 whose limit headers and
 * `retry-after` the page reads. The same page against a server with `cors: false` fails as
 * browsers fail ("Failed to fetch"), which is what this test would catch.
 *
 * Under CI=true the browser must be there (.ci/run installs it); elsewhere, without
 * /usr/bin/chromium, this file says so loudly and skips.
 */
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { chromium } from 'playwright-core';
import { createServer } from '../../host/index.ts';
import type { Plan, RequestLogLine } from '../../host/index.ts';
import { fixtureChains } from './helpers.ts';

const CHROMIUM = '/usr/bin/chromium';

/** What the page saw of one fetch. */
interface Seen {
  readonly ok: boolean;
  readonly status?: number;
  readonly error?: string;
  readonly headers?: Record<string, string | null>;
  readonly body?: unknown;
}

/** Three anonymous requests a minute: the fourth is a 429. */
const THREE: Plan = { name: 'three', requests: 3, windowSeconds: 60, credits: 1000, creditPeriod: 'day' };
const BIG: Plan = { name: 'big', requests: 1000, windowSeconds: 1, credits: 100_000, creditPeriod: 'day' };

if (!existsSync(CHROMIUM)) {
  if (process.env.CI === 'true') {
    t.fail(`chromium is required under CI and is missing at ${CHROMIUM} (.ci/run installs it)`);
  } else {
    console.error(`\n!!!!! NO CHROMIUM AT ${CHROMIUM}: SKIPPING THE BROWSER TEST OF CORS (it runs under CI=true) !!!!!\n`);
    t.pass('skipped: no chromium');
  }
} else {
  t.test('a page on another origin calls scoutkit: API v2, a key, JSON-RPC, a 429 it can read', async (t) => {
    const { chain1, facts } = await fixtureChains();
    // the server's request log: the preflights the browser sent (playwright does not report them)
    const logged: RequestLogLine[] = [];
    const api = createServer({ chains: { '1': chain1 }, anonymousPlan: THREE, keys: [{ key: 'browser-key', plan: BIG }], log: (l) => logged.push(l), metrics: false, docs: false });
    const closed = createServer({ chains: { '1': chain1 }, cors: false, log: false, metrics: false, docs: false });
    const [{ url: apiUrl }, { url: closedUrl }] = [await api.listen(0), await closed.listen(0)];
    t.teardown(() => Promise.all([api.close(), closed.close()]));
    // the page's own origin: another port
    const site = createHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>a dApp</title><p>another origin</p>');
    });
    site.listen(0, '127.0.0.1');
    await once(site, 'listening');
    const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    t.teardown(() => new Promise<void>((resolve) => site.close(() => resolve())));
    t.not(new URL(siteUrl).origin, new URL(apiUrl).origin, 'the page and the API are different origins');

    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    t.teardown(() => browser.close());
    const page = await browser.newPage();
    await page.goto(`${siteUrl}/`);
    t.equal(new URL(page.url()).origin, siteUrl, 'the page runs on its own origin');

    /** one fetch from the page, as a dApp makes it; the headers it reads back */
    const call = (url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Seen> =>
      page.evaluate(
        async ({ url, init }) => {
          try {
            const res = await fetch(url, init);
            const names = ['content-type', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-credits-remaining', 'retry-after'];
            const headers = Object.fromEntries(names.map((n) => [n, res.headers.get(n)]));
            return { ok: true, status: res.status, headers, body: await res.json() };
          } catch (e) {
            return { ok: false, error: String(e) };
          }
        },
        { url, init },
      );

    const plain = await call(`${apiUrl}/api/v2/blocks/${facts.headBlockNumber}`);
    t.same([plain.ok, plain.status, (plain.body as { height?: number }).height], [true, 200, facts.headBlockNumber], `API v2 without a key: ${plain.error ?? 'read'}`);
    t.same([plain.headers?.['x-ratelimit-limit'], plain.headers?.['x-ratelimit-remaining']], ['3', '2'], 'the page reads the limit headers');

    const keyed = await call(`${apiUrl}/1/api/v2/blocks`, { headers: { 'x-api-key': 'browser-key' } });
    t.same([keyed.ok, keyed.status, keyed.headers?.['x-ratelimit-limit']], [true, 200, '1000'], `the multichain form with x-api-key (a preflight first): ${keyed.error ?? 'read'}`);
    t.ok(Array.isArray((keyed.body as { items?: unknown }).items), 'a block list');
    const bearer = await call(`${apiUrl}/api/v2/stats`, { headers: { authorization: 'Bearer browser-key' } });
    t.same([bearer.ok, bearer.status], [true, 200], `Authorization: Bearer: ${bearer.error ?? 'read'}`);

    const rpc = await call(`${apiUrl}/api/eth-rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }) });
    t.same([rpc.ok, rpc.status, rpc.body], [true, 200, { jsonrpc: '2.0', id: 1, result: `0x${facts.headBlockNumber.toString(16)}` }], `the JSON-RPC POST: ${rpc.error ?? 'read'}`);

    // the third anonymous request admitted, then the 429
    t.equal((await call(`${apiUrl}/api/v2/blocks`)).status, 200);
    const limited = await call(`${apiUrl}/api/v2/blocks`);
    t.same([limited.ok, limited.status, limited.body], [true, 429, { message: 'Too many requests' }], `a 429 the page reads: ${limited.error ?? 'read'}`);
    t.same([limited.headers?.['x-ratelimit-limit'], limited.headers?.['x-ratelimit-remaining']], ['3', '0'], 'its limit headers');
    const reset = Number(limited.headers?.['x-ratelimit-reset']);
    const retry = Number(limited.headers?.['retry-after']);
    t.ok(reset > 0 && reset <= 60_000, `x-ratelimit-reset ${reset} ms`);
    t.ok(retry >= 1 && retry <= 60, `retry-after ${retry} s`);
    t.ok(Number(limited.headers?.['x-credits-remaining']) > 0, 'x-credits-remaining');

    const seen = logged.map((l) => `${l.method} ${l.path} ${l.status}`);
    t.ok(seen.includes('OPTIONS /1/api/v2/blocks 204'), 'the keyed request was preflighted: 204');
    t.ok(seen.includes('OPTIONS /api/eth-rpc 204'), 'the JSON-RPC POST was preflighted: 204');
    t.notOk(seen.includes('OPTIONS /api/v2/blocks 204'), 'a plain GET needs no preflight');

    // the same calls without CORS: what a browser showed before
    const refused = await call(`${closedUrl}/api/v2/blocks`);
    t.same([refused.ok, refused.error], [false, 'TypeError: Failed to fetch'], 'cors: false: the browser refuses the answer');
    const refusedRpc = await call(`${closedUrl}/api/eth-rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}' });
    t.equal(refusedRpc.ok, false, 'cors: false: nor the JSON-RPC POST');
  });
}
