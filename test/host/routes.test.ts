/**
 * Every endpoint over real HTTP, in both forms, against the fixture chain; two chains in one
 * process; methods; pass-through and prefix mounting.
 */
import t from 'tap';
import Koa from 'koa';
import { createExplorer, openApiDocument, readStoreExamples, toJson } from '../../lib/index.ts';
import type { EndpointName } from '../../lib/index.ts';
import { explorerMiddleware } from '../../host/index.ts';
import { fixtureChains, limitHeaders, listen, request } from './helpers.ts';
import { officialFormOf, officialSpecs, validateResponse } from '../support/openapi.ts';
import { validateOurs } from '../support/openapiOurs.ts';
import { endpointCases, EXPLORER_ENDPOINTS, formPrefix, templateOf } from '../conformance/cases.ts';

const { chain1, chain5, facts } = await fixtureChains();
const explorer = createExplorer({ chains: { '1': chain1, '5': chain5 }, defaultChain: '1' });
const KEY = 'routes-test-key';
const plan = { name: 'test', requestsPerSecond: 10_000, credits: 1_000_000, creditPeriod: 'month' as const };

const app = new Koa();
app.use(explorerMiddleware(explorer, { keys: [{ key: KEY, plan }], anonymousPlan: { ...plan, name: 'anon' } }));
app.use((ctx) => {
  ctx.body = 'downstream';
});
const server = await listen(app);
t.teardown(() => server.close());
const withKey = { headers: { 'x-api-key': KEY } };

const missingTx = `0x${'ab'.repeat(32)}`;
const f = facts;
/** Where an endpoint has them, a 404 and a 422 path (the 200 paths are the conformance cases). */
const errorCases: Partial<Record<EndpointName, { notFound?: string; invalid?: string }>> = {
  addressTokens: { invalid: '/addresses/0x/tokens' },
  addressTokenBalances: { invalid: '/addresses/0x12/token-balances' },
  addressInternalTransactions: { invalid: '/addresses/0x/internal-transactions' },
  addressNftCollections: { invalid: '/addresses/zz/nft/collections' },
  addressBlocksValidated: { invalid: '/addresses/0x/blocks-validated' },
  transactions: { invalid: '/transactions?filter=nonsense' },
  transaction: { notFound: `/transactions/${missingTx}`, invalid: '/transactions/0x' },
  transactionStateChanges: {
    notFound: `/transactions/${missingTx}/state-changes`,
    invalid: '/transactions/0x1/state-changes',
  },
  transactionLogs: {
    notFound: `/transactions/${missingTx}/logs`,
    invalid: '/transactions/0x/logs',
  },
  tokenTransfers: { invalid: '/token-transfers?type=ERC-99' },
  tokenInstances: {
    notFound: `/tokens/${f.unknownAddress}/instances`,
    invalid: '/tokens/0x/instances',
  },
  tokenInstanceTransfers: {
    notFound: `/tokens/${f.unknownAddress}/instances/1/transfers`,
    invalid: `/tokens/${f.tokens.erc721}/instances/not-an-id/transfers`,
  },
  tokenTransfersOfToken: {
    notFound: `/tokens/${f.unknownAddress}/transfers`,
    invalid: '/tokens/0x/transfers',
  },
  tokens: { invalid: '/tokens/?type=ERC-99' },
  search: { invalid: '/search?q=bulk&token[address_hash]=0x1' },
  searchV1: { invalid: '/search?q=bulk&token[address_hash]=0x1' },
  searchQuick: { invalid: '/search/quick?q=bulk&page=2' },
  searchCheckRedirect: { invalid: '/search/check-redirect?q=1&x=1' },
  blocks: { invalid: '/blocks?type=nonsense' },
  block: { notFound: '/blocks/999999', invalid: '/blocks/not-a-block' },
  blockCountdown: { notFound: `/blocks/${f.headBlockNumber}/countdown`, invalid: '/blocks/-1/countdown' },
  addressTransactionsCsv: { invalid: `/addresses/${f.eoas.alice}/transactions/csv?from_period=2023-11-14` },
  tokenHoldersCsv: { notFound: `/tokens/${f.unknownAddress}/holders/csv`, invalid: `/tokens/${f.tokens.erc20}/holders/csv?to_period=soon` },
  advancedFiltersCsv: { invalid: '/advanced-filters/csv?block_number=x' },
  // the fixture chain holds no user operations: these answer 404 here (test/lib/endpoints/userOperation*.test.ts answer 200 and 422, which the documents do not list)
  userOperation: { notFound: `/proxy/account-abstraction/operations/${missingTx}` },
  userOperationSummary: { notFound: `/proxy/account-abstraction/operations/${missingTx}/summary` },
  userOperationAccount: { notFound: `/proxy/account-abstraction/accounts/${f.eoas.alice}` },
  userOperationBundler: { notFound: `/proxy/account-abstraction/bundlers/${f.eoas.alice}` },
  userOperationPaymaster: { notFound: `/proxy/account-abstraction/paymasters/${f.eoas.alice}` },
  userOperationFactory: { notFound: `/proxy/account-abstraction/factories/${f.eoas.alice}` },
};

t.test('every endpoint answers in both forms, exactly what lib answers', async (t) => {
  const specs = await officialSpecs();
  // a v1 endpoint's paths are below /api/v1 (formPrefix)
  const okCases = endpointCases(facts).filter((c) => c.status === undefined).map((c) => ({
    endpoint: c.endpoint,
    kind: 'ok' as const,
    path: `${c.path}${c.query === undefined ? '' : `?${new URLSearchParams(c.query).toString()}`}`,
  }));
  const failing = Object.entries(errorCases).flatMap(([name, c]) =>
    (['notFound', 'invalid'] as const).flatMap((kind) => (c[kind] === undefined ? [] : [{ endpoint: name as EndpointName, kind, path: c[kind] }])),
  );
  t.same([...new Set([...okCases, ...failing].map((c) => c.endpoint))].sort(), [...EXPLORER_ENDPOINTS].sort(), 'every explorer endpoint of the registry');
  const STATUS = { ok: 200, notFound: 404, invalid: 422 } as const;
  for (const { endpoint, kind, path } of [...okCases, ...failing]) {
    const status = STATUS[kind];
    const [subPath, search] = path.split('?');
    const query = Object.fromEntries(new URLSearchParams(search ?? ''));
    const [instancePrefix, multichainPrefix] = [formPrefix('instance', endpoint), formPrefix('multichain', endpoint)];
    const instance = await request(`${server.url}${instancePrefix}${path}`);
    const multichain = await request(`${server.url}${multichainPrefix}${path}`, withKey);
    for (const [form, reply, prefix] of [['instance', instance, instancePrefix], ['multichain', multichain, multichainPrefix]] as const) {
      const expected = await explorer.handle({ path: `${prefix}${subPath}`, query });
      t.equal(expected.status, status, `${endpoint} ${kind} ${form}: lib answers ${status}`);
      t.equal(reply.status, status, `${endpoint} ${kind} ${form}: ${status}`);
      t.ok(limitHeaders(reply).limit > 0, `${endpoint} ${kind} ${form}: limit headers`);
      if (expected.stream !== undefined) {
        // a streamed file (the CSV exports): lib's headers and chunks, bytes for bytes
        let text = '';
        for await (const chunk of expected.stream) text += chunk;
        t.equal(reply.headers.get('content-type'), expected.headers['content-type'], `${endpoint} ${kind} ${form}: lib's content type`);
        t.equal(reply.headers.get('content-disposition'), expected.headers['content-disposition'], `${endpoint} ${kind} ${form}: attachment`);
        t.equal(reply.text, text, `${endpoint} ${kind} ${form}: lib's stream, bytes for bytes`);
        continue;
      }
      t.equal(reply.headers.get('content-type'), 'application/json; charset=utf-8');
      t.equal(reply.text, toJson(expected.body), `${endpoint} ${kind} ${form}: lib's body, bytes for bytes`);
      t.same(validateOurs(form, templateOf(endpoint), reply.status, reply.json), [], `${endpoint} ${kind} ${form}: valid against our document`);
      if (specs !== null) {
        const official = officialFormOf(form, templateOf(endpoint));
        const errors = validateResponse(specs, official, templateOf(endpoint), reply.status, reply.json);
        t.same(errors, [], `${endpoint} ${kind} ${form}: valid against the ${official === 'instance' ? '11.2.7' : 'Pro 0.5.0'} document`);
      }
    }
  }
});

t.test('our OpenAPI document over HTTP, in both forms', async (t) => {
  const expected = toJson(openApiDocument({ chainIds: ['1', '5'], examples: await readStoreExamples(chain1, '1') }));
  const instance = await request(`${server.url}/api/v2/openapi.json`);
  t.equal(instance.status, 200);
  t.equal(instance.headers.get('content-type'), 'application/json; charset=utf-8');
  t.equal(instance.text, expected, "the per-instance form serves openApiDocument({ chainIds }) with the default chain's examples");
  const multichain = await request(`${server.url}/5/api/v2/openapi.json`, withKey);
  t.equal(multichain.status, 200);
  t.equal(multichain.text, toJson(openApiDocument({ chainIds: ['1', '5'] })), "the multichain form serves the same document, with chain 5's examples (none: its store is empty)");
  t.equal((await request(`${server.url}/7/api/v2/openapi.json`, withKey)).status, 404, 'an unknown chain is 404 here too');
  t.equal((await request(`${server.url}/api/v2/openapi.json?x=1`)).status, 422, 'unknown query parameters are 422 as anywhere');
});

t.test('two chains in one process', async (t) => {
  const one = await request(`${server.url}/1/api/v2/blocks`, withKey);
  const five = await request(`${server.url}/5/api/v2/blocks`, withKey);
  t.equal(one.status, 200);
  t.equal((one.json as { items: { height: number }[] }).items[0]?.height, f.headBlockNumber);
  t.equal(five.status, 200);
  t.same(five.json, { items: [], next_page_params: null }, 'the empty chain is its own');
  const unknown = await request(`${server.url}/7/api/v2/blocks`, withKey);
  t.equal(unknown.status, 404);
  t.same(unknown.json, { message: 'Unknown chain: 7' });
  t.ok(limitHeaders(unknown).remaining >= 0, '404 carries the limit headers');
  const unknownNoKey = await request(`${server.url}/7/api/v2/blocks`);
  t.equal(unknownNoKey.status, 404, 'an unconfigured chain is 404 with or without a key');
});

t.test('GET and HEAD only', async (t) => {
  const head = await request(`${server.url}/api/v2/blocks`, { method: 'HEAD' });
  t.equal(head.status, 200);
  t.equal(head.text, '');
  t.equal(head.headers.get('content-type'), 'application/json; charset=utf-8');
  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
    const reply = await request(`${server.url}/api/v2/transactions`, { method });
    t.equal(reply.status, 405, method);
    t.same(reply.json, { message: 'Method not allowed' });
    t.equal(reply.headers.get('allow'), 'GET, HEAD');
    t.ok(reply.headers.has('x-ratelimit-limit'), `${method}: limit headers`);
  }
});

t.test('requests outside our routes pass through untouched', async (t) => {
  for (const path of ['/', '/api/v2', '/api/v2/unknown', '/api/v1/blocks', '/1/api/v3/blocks', '/a/b/api/v2/blocks']) {
    const reply = await request(`${server.url}${path}`);
    t.equal(reply.text, 'downstream', path);
    t.notOk(reply.headers.has('x-ratelimit-limit'), `${path}: not counted`);
  }
});

t.test('trailing slash and case-insensitive address', async (t) => {
  const reply = await request(`${server.url}/api/v2/blocks/${f.headBlockNumber}/`);
  t.equal(reply.status, 200);
  const lower = await request(`${server.url}/api/v2/addresses/${f.hotAddress.toLowerCase()}/tokens`);
  const upper = await request(`${server.url}/api/v2/addresses/0x${f.hotAddress.slice(2).toUpperCase()}/tokens`);
  t.equal(lower.status, 200);
  t.equal(lower.text, upper.text);
});

t.test('mounted under a prefix next to the app own routes', async (t) => {
  const host = new Koa();
  host.use(async (ctx, next) => {
    if (ctx.path === '/explorer/own') ctx.body = { own: true };
    else await next();
  });
  host.use(explorerMiddleware(explorer, { prefix: '/explorer', requireKeyForMultichain: false }));
  host.use((ctx) => {
    ctx.status = 418;
    ctx.body = 'app fallback';
  });
  const s = await listen(host);
  t.teardown(() => s.close());
  t.same((await request(`${s.url}/explorer/own`)).json, { own: true });
  const blocks = await request(`${s.url}/explorer/api/v2/blocks`);
  t.equal(blocks.status, 200);
  t.equal(blocks.text, toJson((await explorer.handle({ path: '/api/v2/blocks' })).body));
  t.equal((await request(`${s.url}/explorer/5/api/v2/blocks`)).status, 200, 'multichain form under the prefix');
  const outside = await request(`${s.url}/api/v2/blocks`);
  t.equal(outside.status, 418, 'without the prefix: not ours');
  t.equal(outside.text, 'app fallback');
});
