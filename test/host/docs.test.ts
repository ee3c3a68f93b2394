/**
 * The API docs page over HTTP: the page at / and /api-docs names the configured chains and
 * points swagger-ui at this server's documents; swagger-ui's files come from node_modules;
 * options (path, root, off, prefix); someone else's app keeps its own paths.
 * (test/host/docs-browser.test.ts runs the page in chromium.)
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Koa from 'koa';
import t from 'tap';
import { createServer, explorerMiddleware } from '../../host/index.ts';
import { parseDemoArgs } from '../../host/commands/demo.ts';
import { parseServeArgs } from '../../host/cli.ts';
import { createExplorer } from '../../lib/index.ts';
import { fixtureChains, listen, request } from './helpers.ts';

const { chain1, chain5 } = await fixtureChains();
const swaggerUi = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The swagger-ui configuration in the page's init script. */
function initConfig(script: string): { url?: string; validatorUrl?: unknown } {
  const json = /Object\.assign\((\{.*\}), \{\n/.exec(script)?.[1];
  if (json === undefined) throw new Error(`no configuration in ${script}`);
  return JSON.parse(json) as { url?: string; validatorUrl?: unknown };
}

t.test('one chain: the page, its assets, the document it shows', async (t) => {
  const server = createServer({ chains: { '1': chain1 }, log: false });
  const { url } = await server.listen(0);
  t.teardown(() => server.close());
  t.equal(server.docsPath, '/');

  for (const path of ['/', '/api-docs', '/api-docs/']) {
    const page = await request(`${url}${path}`);
    t.equal(page.status, 200, path);
    t.match(page.headers.get('content-type'), /^text\/html/, path);
    t.match(page.headers.get('content-security-policy'), /script-src 'self'.*connect-src 'self'/, `${path}: nothing from elsewhere`);
    t.match(page.text, /<li class="chain" data-chain="1">chain <b>1<\/b> \(default\): <code>\/api\/v2<\/code> · <code>\/1\/api\/v2<\/code><\/li>/);
    t.match(page.text, /<a href="\/metrics">metrics<\/a>/);
    t.notMatch(page.text, /https?:\/\//, `${path}: no absolute URL (no CDN)`);
  }
  const scripts = [...(await request(`${url}/`)).text.matchAll(/<script src="([^"]+)"><\/script>/g)].map((m) => m[1]);
  t.same(scripts, ['/api-docs/swagger-ui-bundle.js', '/api-docs/swagger-ui-standalone-preset.js', '/api-docs/init.js']);

  for (const [name, type] of [
    ['swagger-ui-bundle.js', /^text\/javascript/],
    ['swagger-ui-standalone-preset.js', /^text\/javascript/],
    ['swagger-ui.css', /^text\/css/],
    ['favicon-32x32.png', /^image\/png/],
  ] as const) {
    const res = await fetch(`${url}/api-docs/${name}`);
    t.equal(res.status, 200, name);
    t.match(res.headers.get('content-type'), type, name);
    const served = Buffer.from(await res.arrayBuffer());
    t.ok(served.equals(await readFile(join(swaggerUi, name))), `${name}: the file of swagger-ui-dist`);
  }
  const init = await request(`${url}/api-docs/init.js`);
  t.equal(init.status, 200);
  const config = initConfig(init.text);
  t.equal(config.url, '/api/v2/openapi.json', "this server's document");
  t.equal(config.validatorUrl, null, 'no call to the public validator');
  t.match(init.text, /layoutActions\.show\(\['operations-tag', "multichain"\], false\)/, 'the multichain twins: their section starts closed');
  t.match((await request(`${url}/`)).text, /<div id="dialects">.*<code>\/api\?module=…&amp;action=…<\/code>.*<code>POST \/api\/eth-rpc<\/code>.*<code>\/api\/json\/config<\/code>/, 'the other dialects named');

  for (const path of ['/api-docs/swagger-initializer.js', '/api-docs/index.html', '/api-docs/%2e%2e/package.json', '/api-docs/../package.json', '/api-docs/x/swagger-ui.css']) {
    const res = await request(`${url}${path}`);
    t.equal(res.status, 404, `${path}: not served`);
    t.same(res.json, { message: 'Page not found' });
  }
  const post = await request(`${url}/`, { method: 'POST' });
  t.equal(post.status, 400, "the page answers GET and HEAD only: a POST is Sourcify's legacy verify (lib/sourcify/legacyVerify.ts)");
  t.match(post.json, { error: String, message: String }, "in Sourcify's legacy error shape");
  t.equal((await fetch(`${url}/api-docs`, { method: 'HEAD' })).status, 200);
  t.equal((await request(`${url}/api/v2/blocks`)).status, 200, 'the API is unchanged');

  const scraped = (await request(`${url}/metrics`)).text;
  t.match(scraped, /^scoutkit_http_requests_total\{endpoint="docs",chain="",status="200"\} \d+$/m, 'the page under one metrics label');
});

t.test('several chains: each one listed, names escaped; one document holds them all', async (t) => {
  const odd = '<x&y>';
  const server = createServer({ chains: { '5': chain5, '1': chain1, [odd]: chain5 }, defaultChain: '1', log: false, metrics: false });
  const { url } = await server.listen(0);
  t.teardown(() => server.close());
  const page = await request(`${url}/`);
  const chains = [...page.text.matchAll(/<li class="chain" data-chain="([^"]*)">(.*?)<\/li>/g)].map((m) => [m[1], m[2]]);
  // in the explorer's order (JavaScript puts integer keys first, ascending)
  t.same(chains, [
    ['1', 'chain <b>1</b> (default): <code>/api/v2</code> · <code>/1/api/v2</code>'],
    ['5', 'chain <b>5</b>: <code>/5/api/v2</code>'],
    ['&lt;x&amp;y&gt;', 'chain <b>&lt;x&amp;y&gt;</b>: <code>/%3Cx%26y%3E/api/v2</code>'],
  ]);
  t.notMatch(page.text, /metrics/, 'no metrics link when metrics are off');
  t.match(page.text, /needs an API key/, 'the multichain form needs a key here');
  t.equal(initConfig((await request(`${url}/api-docs/init.js`)).text).url, '/api/v2/openapi.json');
  const doc = (await request(`${url}/api/v2/openapi.json`)).json as { paths: Record<string, { get: { parameters: { name: string; schema: { enum?: string[] } }[] } }> };
  const chainParam = doc.paths['/{chain_id}/api/v2/blocks']?.get.parameters.find((p) => p.name === 'chain_id');
  t.same(chainParam?.schema.enum, ['1', '5', odd], 'the document offers every configured chain');
});

t.test('options: another path, not at /, off, below a prefix', async (t) => {
  const moved = createServer({ chains: { '1': chain1 }, log: false, docs: { path: '/docs', root: false }, requireKeyForMultichain: false });
  const off = createServer({ chains: { '1': chain1 }, log: false, docs: false });
  const prefixed = createServer({ chains: { '1': chain1 }, log: false, prefix: '/explorer' });
  const [lm, lo, lp] = [await moved.listen(0), await off.listen(0), await prefixed.listen(0)];
  t.teardown(async () => {
    await moved.close();
    await off.close();
    await prefixed.close();
  });
  t.equal(moved.docsPath, '/docs');
  t.equal((await request(`${lm.url}/docs`)).status, 200);
  t.equal((await request(`${lm.url}/docs/swagger-ui.css`)).status, 200);
  t.equal((await request(`${lm.url}/`)).status, 404);
  t.equal((await request(`${lm.url}/api-docs`)).status, 404);
  t.match((await request(`${lm.url}/docs`)).text, /<script src="\/docs\/init\.js">/);
  t.notMatch((await request(`${lm.url}/docs`)).text, /needs an API key/, 'open multichain: no key hint');

  t.equal(off.docsPath, undefined);
  for (const path of ['/', '/api-docs', '/api-docs/swagger-ui-bundle.js']) t.equal((await request(`${lo.url}${path}`)).status, 404, `off: ${path}`);

  t.equal(initConfig((await request(`${lp.url}/api-docs/init.js`)).text).url, '/explorer/api/v2/openapi.json');
  t.match((await request(`${lp.url}/`)).text, /<code>\/explorer\/api\/v2<\/code>/);
  t.match((await request(`${lp.url}/`)).text, /<code>POST \/explorer\/api\/eth-rpc<\/code>/, 'the dialects below the prefix');

  for (const path of ['docs', '/', '/docs/']) {
    t.throws(() => createServer({ chains: { '1': chain1 }, log: false, docs: { path } }), /docs path/, path);
  }
  t.throws(() => createServer({ chains: { '1': chain1 }, log: false, metrics: { path: '/api-docs/metrics' } }), /within the docs/);
});

t.test("mounted in someone else's app, the middleware leaves / and /api-docs alone", async (t) => {
  const app = new Koa();
  app.use(explorerMiddleware(createExplorer({ chains: { '1': chain1 } })));
  app.use((ctx) => {
    ctx.body = `theirs: ${ctx.path}`;
  });
  const l = await listen(app);
  t.teardown(() => l.close());
  for (const path of ['/', '/api-docs', '/api-docs/swagger-ui-bundle.js']) t.equal((await request(`${l.url}${path}`)).text, `theirs: ${path}`);
});

t.test('--no-docs', async (t) => {
  t.equal(parseServeArgs(['--db', 'memory:']).docs, undefined);
  t.equal(parseServeArgs(['--db', 'memory:', '--no-docs']).docs, false);
  t.same(parseDemoArgs(['--no-docs', '--no-metrics']), { ...parseDemoArgs([]), docs: false, metricsPath: false });
});
