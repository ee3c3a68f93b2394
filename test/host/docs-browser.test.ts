/**
 * The API docs page in a real headless browser (Debian's chromium, driven by playwright-core):
 * `scoutkit serve`'s server on memory:fixture renders the endpoint list of our OpenAPI document
 * (every dialect; the multichain twins under one tag); "Try it out" comes pre-filled with the
 * store's values, and "Execute" shows live data from this server for an API v2 operation, an
 * Etherscan action (`/api?module=…&action=…`) and the JSON-RPC POST; nothing is loaded from
 * elsewhere.
 * Saves a screenshot under .tap/screenshots/ (git-ignored) and prints its path.
 *
 * Under CI=true the browser must be there (.ci/run installs it); elsewhere, without
 * /usr/bin/chromium, this file says so loudly and skips.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { chromium } from 'playwright-core';
import { createServer, openStore } from '../../host/index.ts';

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOTS = join(import.meta.dirname, '..', '..', '.tap', 'screenshots');

if (!existsSync(CHROMIUM)) {
  if (process.env.CI === 'true') {
    t.fail(`chromium is required under CI and is missing at ${CHROMIUM} (.ci/run installs it)`);
  } else {
    console.error(`\n!!!!! NO CHROMIUM AT ${CHROMIUM}: SKIPPING THE BROWSER TEST OF THE DOCS PAGE (it runs under CI=true) !!!!!\n`);
    t.pass('skipped: no chromium');
  }
} else {
  t.test('the docs page in chromium: endpoint list, try it out, live data', async (t) => {
    const started = performance.now();
    const store = await openStore('memory:fixture');
    const head = await store.source.getHighestBlockNumber();
    if (head === null) throw new Error('the fixture chain has blocks');
    // the fixture chain as the default chain, and an empty second chain
    const empty = await openStore('memory:');
    const server = createServer({ chains: { '1': store.source, '5': empty.source }, log: false });
    const { url: origin } = await server.listen(0);
    t.teardown(() => server.close());

    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    t.teardown(() => browser.close());
    const page = await browser.newPage({ viewport: { width: 1280, height: 1200 } });
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });

    const response = await page.goto(`${origin}/`);
    t.equal(response?.status(), 200);
    t.equal(await page.title(), 'scoutkit — Blockscout API v2');
    const chains = await page.locator('#chains li').allInnerTexts();
    t.same(chains, ['chain 1 (default): /api/v2 · /1/api/v2', 'chain 5: /5/api/v2'], 'the configured chains');

    // the endpoint list
    await page.locator('.opblock-summary-path').first().waitFor({ timeout: 30_000 });
    const listShot = join(SCREENSHOTS, 'docs-page.png');
    await mkdir(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: listShot });
    t.comment(`screenshot: ${listShot}`);
    // swagger-ui renders a long operation list virtualized (only the rows near the window are in
    // the DOM): walk the page top to bottom and collect every row that shows up
    const served = (await (await fetch(`${origin}/api/v2/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { tags: string[] }>>;
      tags: { name: string }[];
    };
    // each rendered operation's path, and its section (the tag in its link, `#/<tag>/<operationId>`)
    const rendered = async () =>
      page.locator('.opblock-summary-path').evaluateAll((els) =>
        els.map((e) => [e.getAttribute('data-path') ?? '', decodeURIComponent((e.querySelector('a')?.getAttribute('href') ?? '').split('/')[1] ?? '')] as const),
      );
    const renderedTags = async () => page.locator('.opblock-tag').evaluateAll((els) => els.map((e) => e.getAttribute('data-tag') ?? ''));
    const seen = new Map<string, string>(await rendered());
    const tags = new Set<string>(await renderedTags());
    // scrolling the window itself (a wheel over an expanded operation would scroll its body instead)
    type Scrollable = { scrollBy(x: number, y: number): void; scrollTo(x: number, y: number): void };
    const scrollBy = (dy: number) => page.evaluate((y) => (globalThis as unknown as Scrollable).scrollBy(0, y), dy);
    // the multichain section starts closed: opened when reached
    let closedAtFirst: boolean | undefined;
    for (let step = 0; step < 600 && seen.size < Object.keys(served.paths).length; step++) {
      await scrollBy(600);
      await page.waitForTimeout(40);
      for (const [p, tag] of await rendered()) seen.set(p, tag);
      for (const x of await renderedTags()) tags.add(x);
      if (closedAtFirst === undefined && tags.has('multichain')) {
        await page.waitForTimeout(200);
        closedAtFirst = !(await rendered()).some(([p]) => p.startsWith('/{chain_id}/'));
        await page.locator('.opblock-tag[data-tag="multichain"]').click();
      }
    }
    t.equal(closedAtFirst, true, 'the multichain section starts closed');
    t.same([...seen.keys()].sort(), Object.keys(served.paths).sort(), `the endpoint list: every path of our document (${seen.size})`);
    t.same([...tags], served.tags.map((x) => x.name), 'the sections: every tag of the document, in its order');
    t.ok([...seen.keys()].some((p) => p.startsWith('/api?module=')) && seen.has('/api/eth-rpc') && seen.has('/api/json/config'), 'the Etherscan actions, JSON-RPC and the config are listed');
    const twins = [...seen.entries()].filter(([p]) => p.startsWith('/{chain_id}/'));
    t.ok(twins.length > 0 && twins.every(([, tag]) => tag === 'multichain'), `every multichain twin (${twins.length}) in the one multichain section`);
    t.notOk([...seen.entries()].some(([p, tag]) => tag === 'multichain' && !p.startsWith('/{chain_id}/')), 'and nothing else there');

    const stored = await store.source.getBlock({ number: head });
    // an operation: scrolled to, expanded, "Try it out" clicked
    const tryOut = async (path: string) => {
      await page.evaluate(() => (globalThis as unknown as Scrollable).scrollTo(0, 0));
      await page.waitForTimeout(100);
      for (let step = 0; step < 600 && (await page.locator(`.opblock-summary-path[data-path="${path}"]`).count()) === 0; step++) {
        await scrollBy(600);
        await page.waitForTimeout(40);
      }
      const operation = page.locator('.opblock').filter({ has: page.locator(`.opblock-summary-path[data-path="${path}"]`) });
      await operation.scrollIntoViewIfNeeded();
      await operation.locator('.opblock-summary-control').click();
      await operation.locator('button.try-out__btn').click();
      return operation;
    };
    // "Execute", then what the page shows: the request URL, the status and the body
    const execute = async (operation: Awaited<ReturnType<typeof tryOut>>) => {
      await operation.locator('button.execute').click();
      const body = operation.locator('.live-responses-table .response-col_description pre');
      await body.first().waitFor({ timeout: 30_000 });
      return {
        url: (await operation.locator('.request-url pre').innerText()).trim(),
        status: (await operation.locator('.live-responses-table .response .response-col_status').first().innerText()).trim(),
        json: JSON.parse(await body.first().innerText()) as Record<string, unknown>,
      };
    };

    // the block endpoint: pre-filled with the store's head block, executed as it is
    const blockPath = '/api/v2/blocks/{block_hash_or_number_param}';
    const operation = await tryOut(blockPath);
    t.equal(await operation.locator('tr[data-param-name="block_hash_or_number_param"] input').inputValue(), String(head), 'pre-filled: the head block of the store');
    const block = await execute(operation);
    t.equal(block.url, `${origin}/api/v2/blocks/${head}`, 'try it calls this server');
    t.equal(block.status, '200');
    t.equal(block.json.height, head, `the live answer shows block ${head} of the fixture chain`);
    t.equal(block.json.hash, stored?.hash, 'the block the store holds');

    // the operation at the top of the window: its parameter, the request URL and the live answer
    const screenshot = join(SCREENSHOTS, 'docs-try-it.png');
    await operation.evaluate((e) => e.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: screenshot });
    t.comment(`screenshot: ${screenshot}`);

    // an Etherscan action: pre-filled with an address of the store, called as /api?module=…&action=…&address=…
    const balance = await tryOut('/api?module=account&action=balance');
    const address = await balance.locator('tr[data-param-name="address"] input').inputValue();
    const tx = (await store.source.listTransactions({ status: 'validated' }, { after: null, limit: 1, order: 'desc' }))[0];
    t.equal(address, tx?.from, 'pre-filled: the sender of the newest transaction');
    const etherscan = await execute(balance);
    t.equal(etherscan.url, `${origin}/api?module=account&action=balance&address=${address}`, 'the real Etherscan-style request');
    t.equal(etherscan.status, '200');
    t.match(etherscan.json, { status: '1', message: 'OK', result: /^\d+$/ }, 'the balance, in wei');

    // the JSON-RPC POST: its body pre-filled, executed
    const rpc = await tryOut('/api/eth-rpc');
    const sent = JSON.parse(await rpc.locator('.body-param textarea').inputValue()) as unknown;
    t.same(sent, { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }, 'pre-filled: a JSON-RPC call');
    const called = await execute(rpc);
    t.equal(called.url, `${origin}/api/eth-rpc`);
    t.equal(called.status, '200');
    t.same(called.json, { jsonrpc: '2.0', id: 1, result: `0x${head.toString(16)}` }, 'the head block, from this server');

    t.same(
      requested.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:')),
      [],
      'nothing is loaded from anywhere but this server',
    );
    t.same(problems, [], 'no page errors');
    t.comment(`browser test took ${Math.round(performance.now() - started)} ms`);
  });
}
