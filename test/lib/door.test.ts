/**
 * The door for writes: the route table keyed by method and template, a body decoded by its
 * route's codec (422 from the one error table, 413 over the cap), through `handle` and
 * `dispatch` with a test-only POST endpoint; one config per chain; the one path classifier.
 */
import t from 'tap';
import { createMemoryStore } from '../../adapters/memory/index.ts';
import { createRpcNode } from '../../adapters/rpc/index.ts';
import { chainConfigs, classifyPath, createExplorer, errorResponse, jsonBody, matchRoute, routeMatcher } from '../../lib/index.ts';
import type { ExplorerResponse, RequestBody } from '../../lib/index.ts';
import { NOTE_MAX_BYTES, postNote, TEST_ENDPOINTS } from '../support/postEndpoint.ts';

const store = createMemoryStore();
const explorer = createExplorer({ chains: { '1': store, '5': { store: createMemoryStore() } }, endpoints: TEST_ENDPOINTS });
const post = (path: string, body?: RequestBody, method = 'POST'): Promise<ExplorerResponse> =>
  explorer.handle({ path, method, ...(body !== undefined ? { body } : {}) });

t.test('the route table is keyed by method and template', async (t) => {
  const table = routeMatcher([
    { endpoint: 'read', template: '/things/:id' },
    { endpoint: 'write', method: 'POST', template: '/things/:id' },
    { endpoint: 'create', method: 'POST', template: '/things' },
  ]);
  t.same(table('/things/7'), { endpoint: 'read', params: { id: '7' } }, 'GET by default');
  t.same(table('/things/7', 'HEAD'), { endpoint: 'read', params: { id: '7' } }, 'HEAD follows GET');
  t.same(table('/things/7', 'POST'), { endpoint: 'write', params: { id: '7' } }, 'the same template under POST');
  t.equal(table('/things', 'GET'), null, 'a POST-only path is no GET route');
  t.same(
    table.any('/things').map((r) => [r.method, r.endpoint]),
    [['POST', 'create']],
    'but it is known under POST (a 405, not a 404)',
  );
  t.same(table.any('/nothing'), [], 'an unknown path is known under no method');
  t.equal(table('/things/7', 'DELETE'), null);
  t.same(matchRoute('/blocks'), { endpoint: 'blocks', params: {} }, "the registry's table: every route a GET");
  t.equal(matchRoute('/blocks', 'POST'), null);
});

t.test('a POST route: its body decoded by its codec (JSON, urlencoded, multipart)', async (t) => {
  const json = await post('/api/v2/test/notes/alice', jsonBody({ greeting: 'hello', count: 3 }));
  t.equal(json.status, 200);
  t.same(json.body, { chain: '1', store: true, name: 'alice', greeting: 'hello', count: 3, attachment: null });

  const form = await post('/5/api/v2/test/notes/bob', { type: 'urlencoded', value: { greeting: 'hi', count: '12' }, size: 20 });
  t.same(form.body, { chain: '5', store: true, name: 'bob', greeting: 'hi', count: 12, attachment: null }, 'a form field decoded by the same codec');

  const file = { filename: 'Note.sol', contentType: 'text/plain', content: new TextEncoder().encode('contract Note {}') };
  const multipart = await post('/api/v2/test/notes/carol', { type: 'multipart', value: { greeting: 'yo', attachment: file }, size: 300 });
  t.same(multipart.body, {
    chain: '1',
    store: true,
    name: 'carol',
    greeting: 'yo',
    count: null,
    attachment: { filename: 'Note.sol', contentType: 'text/plain', text: 'contract Note {}' },
  });
  const dispatched = await explorer.dispatch({ endpoint: 'postNote', chainId: '1', params: { name: 'd' }, query: {}, body: jsonBody({ greeting: 'x' }) });
  t.equal(dispatched.status, 200, 'dispatch by name (an added endpoint)');
});

t.test('a bad body is the 422 of the one error table; an oversized one 413', async (t) => {
  const bad = await post('/api/v2/test/notes/alice', jsonBody({ count: 'many' }));
  t.equal(bad.status, 422);
  t.same(bad.body, {
    errors: [
      { title: 'Invalid value', source: { pointer: '/greeting' }, detail: 'Missing field: greeting' },
      { title: 'Invalid value', source: { pointer: '/count' }, detail: 'expected digits' },
    ],
  });
  const none = await post('/api/v2/test/notes/alice');
  t.equal(none.status, 422);
  t.same(none.body, { errors: [{ title: 'Invalid value', source: { pointer: '/' }, detail: 'Missing body' }] });
  const notObject = await post('/api/v2/test/notes/alice', jsonBody([1, 2]));
  t.equal(notObject.status, 422, 'a body of the wrong shape');

  const big = await post('/api/v2/test/notes/alice', jsonBody({ greeting: 'x'.repeat(NOTE_MAX_BYTES) }));
  t.equal(big.status, 413);
  t.same(big.body, { message: `Request body too large: at most ${NOTE_MAX_BYTES} bytes` });
  t.same(errorResponse({ kind: 'PayloadTooLarge', maxBytes: 10 }), { status: 413, body: { message: 'Request body too large: at most 10 bytes' } });
  const query = await explorer.handle({ path: '/api/v2/test/notes/alice', method: 'POST', query: { nope: '1' }, body: jsonBody({ greeting: 'x' }) });
  t.equal(query.status, 422, 'the query is decoded as for any route');
});

t.test('methods: 405 for a path known under another method, 404 for an unknown one', async (t) => {
  const get = await post('/api/v2/test/notes/alice', undefined, 'GET');
  t.equal(get.status, 405);
  t.same(get.body, { message: 'Method not allowed' });
  t.equal((await post('/api/v2/test/notes/alice', undefined, 'HEAD')).status, 405);
  t.equal((await post('/api/v2/blocks', jsonBody({}), 'POST')).status, 405, 'a GET route refuses a POST, as before');
  t.equal((await post('/api/v2/test/nothing', jsonBody({}), 'POST')).status, 404);
  const wrong = await explorer.dispatch({ endpoint: 'postNote', method: 'GET', chainId: '1', params: { name: 'd' }, query: {} });
  t.equal(wrong.status, 405, 'dispatch checks a method it is given');
  t.equal((await explorer.dispatch({ endpoint: 'noSuchEndpoint', chainId: '1', params: {}, query: {} })).status, 404);
  const plain = createExplorer({ chains: { '1': store } });
  t.equal((await plain.handle({ path: '/api/v2/test/notes/alice', method: 'POST' })).status, 404, 'an explorer without it does not know it');
  t.equal((await explorer.handle({ path: '/api/v2/blocks', method: 'HEAD' })).status, 200, 'HEAD follows GET');
});

t.test('a GET route reads no body; a write is never cached', async (t) => {
  const blocks = await explorer.handle({ path: '/api/v2/blocks', body: jsonBody({ anything: true }) });
  t.equal(blocks.status, 200);
  const a = await post('/api/v2/test/notes/alice', jsonBody({ greeting: 'one' }));
  const b = await post('/api/v2/test/notes/alice', jsonBody({ greeting: 'two' }));
  t.same([(a.body as { greeting: string }).greeting, (b.body as { greeting: string }).greeting], ['one', 'two']);
});

t.test('added endpoints cannot take a name or a route of the registry', async (t) => {
  t.throws(() => createExplorer({ chains: { '1': store }, endpoints: { blocks: postNote } }), /already in the route table/);
  t.throws(() => createExplorer({ chains: { '1': store }, endpoints: { a: postNote, b: postNote } }), /already in the route table/);
});

t.test('one config per chain: a bare DataSource is { store }', async (t) => {
  const node = createRpcNode('http://127.0.0.1:9');
  const configs = chainConfigs({ '1': store, '2': { store, node } });
  t.equal(configs['1']?.store, store);
  t.equal(configs['1']?.node, undefined);
  t.equal(configs['2']?.node, node);
  t.same(Object.keys(explorer.chains ?? {}), ['1', '5']);
  t.equal(explorer.chains?.['1']?.store, store, "the explorer's chains, normalised once");
});

t.test('the one path classifier', async (t) => {
  t.same(classifyPath('/api/v2/blocks?x=1'), { dialect: 'api', chainId: undefined, subPath: '/blocks', api: 'v2' });
  t.same(classifyPath('/10/api/v2/blocks'), { dialect: 'api', chainId: '10', subPath: '/blocks', api: 'v2' });
  t.same(classifyPath('/api/v2/nothing'), { dialect: 'api', chainId: undefined, subPath: '/nothing', api: 'v2' }, 'the route table decides');
  t.same(classifyPath('/api/eth-rpc/'), { dialect: 'rpc', chainId: undefined });
  t.same(classifyPath('/10/JSON-RPC'), { dialect: 'rpc', chainId: '10' });
  t.same(classifyPath('/api'), { dialect: 'etherscan', chainId: undefined, legacyPath: undefined });
  t.same(classifyPath('/10/api/'), { dialect: 'etherscan', chainId: '10', legacyPath: undefined });
  t.same(classifyPath('/10/api/Legacy/logs/get-logs/'), { dialect: 'etherscan', chainId: '10', legacyPath: '/Legacy/logs/get-logs/' }, 'the legacy path as sent');
  t.same(classifyPath('/api/json/config'), { dialect: 'config' });
  t.equal(classifyPath('/api/nothing'), null);
  t.equal(classifyPath('/health'), null);
});
