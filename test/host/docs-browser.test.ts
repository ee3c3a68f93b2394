/**
 * The API docs page in a real headless browser (Debian's chromium, driven by playwright-core):
 * `scoutkit serve`'s server on memory:fixture renders the endpoint list of our OpenAPI document;
 * one operation's "Try it out" → "Execute" shows live data from this server; nothing is loaded
 * from elsewhere.
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
    const served = ((await (await fetch(`${origin}/api/v2/openapi.json`)).json()) as { paths: Record<string, unknown> }).paths;
    const rendered = async () => page.locator('.opblock-summary-path').evaluateAll((els) => els.map((e) => e.getAttribute('data-path') ?? ''));
    const seen = new Set<string>(await rendered());
    for (let step = 0; step < 400 && seen.size < Object.keys(served).length; step++) {
      await page.mouse.wheel(0, 600);
      await page.waitForTimeout(40);
      for (const p of await rendered()) seen.add(p);
    }
    t.same([...seen].sort(), Object.keys(served).sort(), `the endpoint list: every path of our document (${seen.size})`);

    // expand the block endpoint, try it out with the fixture's head, execute
    const blockPath = '/api/v2/blocks/{block_hash_or_number_param}';
    await page.mouse.wheel(0, -1_000_000);
    await page.waitForTimeout(100);
    for (let step = 0; step < 400 && (await page.locator(`.opblock-summary-path[data-path="${blockPath}"]`).count()) === 0; step++) {
      await page.mouse.wheel(0, 600);
      await page.waitForTimeout(40);
    }
    const operation = page.locator('.opblock').filter({ has: page.locator(`.opblock-summary-path[data-path="${blockPath}"]`) });
    await operation.scrollIntoViewIfNeeded();
    await operation.locator('.opblock-summary-control').click();
    await operation.locator('button.try-out__btn').click();
    await operation.locator('tr[data-param-name="block_hash_or_number_param"] input').fill(String(head));
    await operation.locator('button.execute').click();
    const body = operation.locator('.live-responses-table .response-col_description pre');
    await body.first().waitFor({ timeout: 30_000 });
    const requestUrl = (await operation.locator('.request-url pre').innerText()).trim();
    t.equal(requestUrl, `${origin}/api/v2/blocks/${head}`, 'try it calls this server');
    const status = (await operation.locator('.live-responses-table .response .response-col_status').first().innerText()).trim();
    t.equal(status, '200');
    const shown = JSON.parse(await body.first().innerText()) as { height?: unknown; hash?: unknown };
    t.equal(shown.height, head, `the live answer shows block ${head} of the fixture chain`);
    const stored = await store.source.getBlock({ number: head });
    t.equal(shown.hash, stored?.hash, 'the block the store holds');

    // the operation at the top of the window: its parameter, the request URL and the live answer
    const screenshot = join(SCREENSHOTS, 'docs-try-it.png');
    await operation.evaluate((e) => e.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: screenshot });
    t.comment(`screenshot: ${screenshot}`);

    t.same(
      requested.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:')),
      [],
      'nothing is loaded from anywhere but this server',
    );
    t.same(problems, [], 'no page errors');
    t.comment(`browser test took ${Math.round(performance.now() - started)} ms`);
  });
}
