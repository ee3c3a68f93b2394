/**
 * The registry: one module per path, and what is derived from it — the names, the route table
 * (fixed segments before parameters), and the endpoint table of docs/api-behaviour.md.
 */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { ENDPOINT_NAMES, ENDPOINTS, matchRoute, OPENAPI_PATH, ROUTES, routeMatcher } from '../../lib/index.ts';
import type { ApiVersion, HttpMethod } from '../../lib/index.ts';
import { EXPLORER_ENDPOINTS, templateOf } from '../conformance/cases.ts';

const SAMPLE: Readonly<Record<string, string>> = {
  address_hash_param: `0x${'12'.repeat(20)}`,
  transaction_hash_param: `0x${'ab'.repeat(32)}`,
  token_id_param: '7',
  block_hash_or_number_param: '42',
};

t.test('names, routes and modules are one registry', async (t) => {
  t.same([...ENDPOINT_NAMES], Object.keys(ENDPOINTS), 'the names are the registry keys');
  t.same(
    ROUTES.map((r) => r.endpoint),
    [...ENDPOINT_NAMES],
    'one route per endpoint',
  );
  const apiOf = (n: (typeof ENDPOINT_NAMES)[number]): ApiVersion => (ENDPOINTS[n] as { readonly api?: ApiVersion }).api ?? 'v2';
  const routes = ENDPOINT_NAMES.map((n) => `${apiOf(n)} ${ENDPOINTS[n].route}`);
  t.equal(new Set(routes).size, routes.length, 'no two endpoints share a route (of one API version)');
  t.equal(ENDPOINTS.openApi.route, OPENAPI_PATH, 'the document is a registry entry of its own');
  t.same(
    ENDPOINT_NAMES.filter((n) => ENDPOINTS[n].meta === true),
    ['openApi', 'events'],
    'and the only ones left out of the explorer endpoints (with the live stream, /events)',
  );
  for (const name of ENDPOINT_NAMES) {
    const route = ENDPOINTS[name].route;
    const path = route.replace(/\{([^}]+)\}/g, (_m, p: string) => SAMPLE[p] ?? 'x');
    const e: { readonly method?: HttpMethod; readonly body?: { readonly maxBytes: number } } = ENDPOINTS[name];
    const params = Object.fromEntries([...route.matchAll(/\{([^}]+)\}/g)].map((m) => [m[1], SAMPLE[m[1] ?? ''] ?? 'x']));
    // a route that reads a body carries its cap
    t.same(matchRoute(path, e.method ?? 'GET', apiOf(name)), { endpoint: name, params, ...(e.body === undefined ? {} : { bodyLimit: e.body.maxBytes }) }, `${path} → ${name}`);
    t.same(
      [...route.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]),
      Object.keys(ENDPOINTS[name].path),
      `${name}: the route's parameters are its path codecs, in order`,
    );
  }
});

t.test('fixed segments match before parameters, whatever the order of the table', async (t) => {
  // as the registry grows: /transactions/stats, /blocks/{n}/countdown and friends
  const match = routeMatcher([
    { endpoint: 'transaction', template: '/transactions/:transaction_hash_param' },
    { endpoint: 'blockTransactions', template: '/blocks/:block_hash_or_number_param/transactions' },
    { endpoint: 'stats', template: '/transactions/stats' },
    { endpoint: 'countdown', template: '/blocks/countdown/transactions' },
    { endpoint: 'watchlist', template: '/transactions/watchlist' },
  ]);
  t.equal(match('/transactions/stats')?.endpoint, 'stats', '/transactions/stats is not a transaction hash');
  t.equal(match('/transactions/watchlist/')?.endpoint, 'watchlist', 'trailing slash');
  t.same(match(`/transactions/${SAMPLE.transaction_hash_param}`), {
    endpoint: 'transaction',
    params: { transaction_hash_param: SAMPLE.transaction_hash_param },
  });
  t.equal(match('/transactions/statsx')?.endpoint, 'transaction', 'a fixed segment matches whole');
  t.equal(match('/blocks/countdown/transactions')?.endpoint, 'countdown', 'at any depth');
  t.equal(match('/blocks/12/transactions')?.endpoint, 'blockTransactions');
  t.equal(match('/transactions/stats/more'), null, 'no partial matches');
  t.equal(routeMatcher([{ endpoint: 'dot', template: '/openapi.json' }])('/openapiXjson'), null, 'fixed segments are literal, not patterns');
});

t.test('a template with a trailing slash (the official `/tokens/`) answers with and without it', async (t) => {
  t.equal(ENDPOINTS.tokens.route, '/tokens/', 'the official path');
  t.equal(matchRoute('/tokens/')?.endpoint, 'tokens');
  t.equal(matchRoute('/tokens')?.endpoint, 'tokens');
  t.equal(matchRoute('/tokens//'), null, 'one slash at most');
  t.equal(matchRoute(`/tokens/${SAMPLE.address_hash_param}`)?.endpoint, 'token', 'a token is still a token');
  t.equal(matchRoute('/search/')?.endpoint, 'search');
});

t.test("the endpoint table of docs/api-behaviour.md lists exactly the registry's paths", async (t) => {
  const doc = readFileSync(new URL('../../docs/api-behaviour.md', import.meta.url), 'utf8');
  const start = doc.indexOf('\n## API v2 endpoints\n');
  t.ok(start >= 0, 'the section "API v2 endpoints" is there');
  const end = doc.indexOf('\n## ', start + 1);
  const section = doc.slice(start, end === -1 ? undefined : end);
  // the table under the header row `| path below `/api/v2` | …`
  const lines = section.split('\n');
  const header = lines.findIndex((l) => l.startsWith('| path below `/api/v2`'));
  t.ok(header >= 0, 'the endpoint table is there');
  const rows = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line);
  }
  const listed = rows.map((row) => (/^\| `(\/[^`]*)`/.exec(row)?.[1] ?? row).replace(/\{[^}]*\}/g, '{}'));
  // a v1 endpoint's row names its path in full (`/api/v1/search`)
  const registry = EXPLORER_ENDPOINTS.map((n) => templateOf(n).replace(/\{[^}]*\}/g, '{}'));
  t.same([...listed].sort(), [...registry].sort(), 'one row per explorer endpoint, no other');
  t.match(section, /`\/api\/v2\/openapi\.json`/, 'and a line on our OpenAPI document');
});
