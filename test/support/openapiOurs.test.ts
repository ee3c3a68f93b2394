/** The validator of our own document catches what it must, and the validating explorer reports it. */
import t from 'tap';
import { createMemoryStore } from '../../adapters/memory/index.ts';
import { createExplorer } from '../../lib/index.ts';
import type { Explorer, ExplorerResponse } from '../../lib/index.ts';
import { validateOurs, validatingExplorer } from './openapiOurs.ts';

const H = `0x${'ab'.repeat(32)}`;
const address = {
  hash: `0x${'12'.repeat(20)}`,
  implementations: [],
  is_contract: false,
  is_scam: false,
  is_verified: null,
  metadata: null,
  name: null,
  proxy_type: null,
  reputation: 'ok',
  ens_domain_name: null,
  private_tags: [],
  public_tags: [],
  watchlist_names: [],
};
const log = (): Record<string, unknown> => ({
  address,
  block_hash: H,
  block_number: 1,
  block_timestamp: '2024-01-01T00:00:00.000000Z',
  data: '0x',
  decoded: null,
  index: 0,
  smart_contract: null,
  topics: [H, null, null, null],
  transaction_hash: H,
});
const LOGS = '/transactions/{transaction_hash_param}/logs';
const page = (...items: unknown[]) => ({ items, next_page_params: null });

t.test('a valid body passes, in both forms', async (t) => {
  for (const form of ['instance', 'multichain'] as const) t.same(validateOurs(form, LOGS, 200, page(log())), [], form);
});

t.test('catches a wrong type, an extra or missing property, a bad pattern or enum', async (t) => {
  t.match(validateOurs('instance', LOGS, 200, page({ ...log(), index: '0' })).join(), /\/items\/0\/index: must be integer/);
  t.match(validateOurs('instance', LOGS, 200, page({ ...log(), surprise: 1 })).join(), /must NOT have additional properties 'surprise'/);
  const missing = log();
  delete missing.data;
  t.match(validateOurs('instance', LOGS, 200, page(missing)).join(), /must have required property 'data'/);
  t.match(validateOurs('instance', LOGS, 200, page({ ...log(), block_hash: '0x12' })).join(), /block_hash: must match pattern/);
  t.match(validateOurs('instance', LOGS, 200, page({ ...log(), address: { ...address, reputation: 'scam' } })).join(), /reputation: must be equal to one of the allowed values/);
  t.match(validateOurs('instance', LOGS, 200, page({ ...log(), block_timestamp: 'yesterday' })).join(), /must match format "date-time"/);
  t.match(validateOurs('instance', '/blocks', 200, { items: [] }).join(), /required property 'next_page_params'/);
});

t.test('error bodies, forms and undocumented answers', async (t) => {
  t.same(validateOurs('instance', LOGS, 404, { message: 'Not found' }), []);
  t.same(validateOurs('multichain', '/blocks/{block_hash_or_number_param}', 404, { message: 'Block lost consensus', hash: H }), []);
  t.same(validateOurs('instance', LOGS, 422, { errors: [{ title: 'Invalid value', source: { pointer: '/x' }, detail: 'd' }] }), []);
  t.not(validateOurs('instance', LOGS, 422, { message: 'x' }).length, 0, 'a 422 is the errors list');
  const meta = { items: [], next_page_params: null, meta: { message: null, status: 1 } };
  t.same(validateOurs('multichain', '/internal-transactions', 200, meta), [], 'multichain lists carry meta');
  t.not(validateOurs('instance', '/internal-transactions', 200, meta).length, 0, 'per-instance ones do not');
  t.match(validateOurs('instance', LOGS, 418, {}).join(), /documents no 418/);
  t.match(validateOurs('instance', '/no/such/path', 200, {}).join(), /no GET/);
});

t.test('the validating explorer collects every failure of handle and dispatch', async (t) => {
  const real = createExplorer({ chains: { '1': createMemoryStore() } });
  const broken = (r: ExplorerResponse): ExplorerResponse => (r.status === 200 ? { ...r, body: { items: 'nope' } } : r);
  const liar: Explorer = {
    ...real,
    handle: async (request) => broken(await real.handle(request)),
    dispatch: async (request) => broken(await real.dispatch(request)),
  };
  const checked = validatingExplorer(liar);
  await checked.explorer.handle({ path: '/api/v2/blocks' });
  await checked.explorer.handle({ path: '/1/api/v2/blocks', query: { bogus: '1' } });
  await checked.explorer.dispatch({ endpoint: 'transactions', chainId: '1', params: {}, query: {} });
  await checked.explorer.handle({ path: '/api/v2/openapi.json' });
  await checked.explorer.handle({ path: '/api/v2/no-such-route' });
  await checked.explorer.handle({ path: '/api/v2/blocks', method: 'POST' });
  t.equal(checked.validated(), 3, 'the document, unknown routes and other methods are not validated');
  t.equal(checked.failures.length, 2, 'the two broken 200s, not the valid 422');
  t.match(checked.failures[0] ?? '', /^instance \/api\/v2\/blocks .*items: must be array/);
  t.match(checked.failures[1] ?? '', /^instance transactions /);
});
