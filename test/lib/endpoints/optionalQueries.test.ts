/**
 * The optional queries of the DataSource port (lib/ports/dataSource.ts: OptionalQuery), each
 * hidden from the fixture store: the host then gives the answer each member's doc states — the
 * same bytes from the wider query (listBlockFigures → listBlocks; getTransactions → one
 * getTransaction each; getCoinBalance → the coin balance history), or the answer for data the
 * indexer did not keep (no trace: 404; no state changes: an empty list; no name index: a search
 * without contracts found by name; no proxy history: every address as no proxy), or, where no
 * other query answers at a bounded cost, 501 `{"message": "… not available from this store"}`
 * (top accounts, address counters, withdrawal totals, contract counts, transaction statistics,
 * hot contracts), a body our OpenAPI document describes.
 */
import t from 'tap';
import { createMemoryStore } from '../../../adapters/memory/index.ts';
import { loadFixtureChain } from '../../../fixture/index.ts';
import { RAW_TRACE_UNAVAILABLE, queryUnavailableMessage } from '../../../lib/errors.ts';
import { createExplorer, ENDPOINTS, toJson } from '../../../lib/index.ts';
import type { EndpointName } from '../../../lib/index.ts';
import type { ProxyRecord } from '../../../lib/domain/records.ts';
import type { DataSource, OptionalQuery } from '../../../lib/ports.ts';
import { validateOurs } from '../../support/openapiOurs.ts';
import { addr, address, block, bundle, tx } from '../../ports/records.ts';

const store = createMemoryStore();
const chain = await loadFixtureChain(store);

/** the store without these members (every other member bound to the store itself) */
function lacking(members: readonly OptionalQuery[], of: DataSource = store): DataSource {
  const hidden = new Set<PropertyKey>(members);
  return new Proxy(of, {
    get: (target, key) => {
      if (hidden.has(key)) return undefined;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
    has: (target, key) => !hidden.has(key) && Reflect.has(target, key),
  });
}

const now = () => 1_800_000_000_000;
const explorer = (ds: DataSource) => createExplorer({ chains: { '1': ds }, now });
const full = explorer(store);
/** a request of a path with its query string */
const request = (url: string) => {
  const [path = '', search = ''] = url.split('?');
  return { path, query: Object.fromEntries(new URLSearchParams(search)) };
};
const get = async (ex: ReturnType<typeof explorer>, path: string) => {
  const r = await ex.handle(request(path));
  return { status: r.status, body: toJson(r.body) };
};

const mined = await store.listTransactions({ status: 'validated' }, { after: null, limit: 500, order: 'desc' });

t.test('without listBlockFigures: the statistics read listBlocks, the same bytes', async (t) => {
  const ex = explorer(lacking(['listBlockFigures']));
  const head = (await store.getHighestBlockNumber()) ?? 0;
  for (const path of ['/api/v2/stats', `/api/v2/blocks/${head + 1000}/countdown`, `/api?module=block&action=getblockcountdown&blockno=${head + 1000}`]) {
    t.same(await get(ex, path), await get(full, path), path);
  }
});

t.test('without getTransactions or getCoinBalance: the same bytes', async (t) => {
  const ex = explorer(lacking(['getTransactions', 'getCoinBalance']));
  const address = chain.facts.eoas.alice;
  for (const path of ['/api/v2/advanced-filters', '/api/v2/advanced-filters?items_count=7', `/api?module=account&action=balance&address=${address}`, `/api?module=account&action=balancemulti&address=${address},${chain.facts.eoas.bob}`]) {
    t.same(await get(ex, path), await get(full, path), path);
  }
});

t.test('without getTransactionTrace: every mined transaction answers as one without kept frames', async (t) => {
  const ex = explorer(lacking(['getTransactionTrace']));
  let traced = 0;
  for (const x of mined) {
    const path = `/api/v2/transactions/${x.hash}/raw-trace`;
    if ((await full.handle({ path })).status === 200) traced += 1;
    const answer = await get(ex, path);
    if (answer.status !== 404 || answer.body !== JSON.stringify({ message: RAW_TRACE_UNAVAILABLE })) t.fail(`${path}: ${answer.status} ${answer.body}`);
  }
  t.ok(traced > 0, `${traced} of ${mined.length} transactions have a trace in the full store`);
});

t.test('without listStateChanges: every transaction has no state changes', async (t) => {
  const ex = explorer(lacking(['listStateChanges']));
  let changed = 0;
  for (const x of mined) {
    const path = `/api/v2/transactions/${x.hash}/state-changes`;
    const answer = await full.handle({ path });
    const items = (answer.body as { items?: readonly unknown[] }).items ?? [];
    if (items.length > 0) changed += 1;
    const lacks = await get(ex, path);
    if (lacks.status !== 200 || lacks.body !== JSON.stringify({ items: [], next_page_params: null })) t.fail(`${path}: ${lacks.status} ${lacks.body}`);
  }
  t.ok(changed > 0, `${changed} of ${mined.length} transactions have state changes in the full store`);
});

t.test('without listAddresses: a search finds no contract by its name, the rest unchanged', async (t) => {
  const ex = explorer(lacking(['listAddresses']));
  const named = await store.listAddresses({ namePrefix: '', isContract: true }, { after: null, limit: 3, order: 'desc' });
  t.ok(named.length > 0, 'the fixture names contracts');
  const items = (body: unknown): readonly { readonly type?: unknown }[] => (Array.isArray(body) ? body : ((body as { items?: unknown[] }).items ?? [])) as { type?: unknown }[];
  let contracts = 0;
  for (const { name } of named) {
    for (const q of [name ?? '', (name ?? '').slice(0, 3)]) {
      for (const path of [`/api/v2/search?q=${encodeURIComponent(q)}`, `/api/v2/search/quick?q=${encodeURIComponent(q)}`]) {
        const found = items((await full.handle(request(path))).body);
        contracts += found.filter((i) => i.type === 'contract').length;
        const rest = items((await ex.handle(request(path))).body);
        t.notOk(rest.some((i) => i.type === 'contract'), `${path}: no contract`);
        const kept = new Set(rest.map((i) => JSON.stringify(i)));
        t.ok(found.filter((i) => i.type !== 'contract').every((i) => kept.has(JSON.stringify(i))), `${path}: and every other item the full store finds`);
      }
    }
  }
  t.ok(contracts > 0, `the full store finds ${contracts} contracts by name`);
});

/** each optional query no other query replaces at a bounded cost: the endpoint that needs it, a path of it, what it answers */
const UNAVAILABLE: readonly (readonly [OptionalQuery, EndpointName, string])[] = [
  ['listAccounts', 'addresses', '/api/v2/addresses?sort=balance&order=asc'],
  ['getAddressCounters', 'addressCounters', `/api/v2/addresses/${chain.facts.eoas.alice}/counters`],
  ['getWithdrawalTotals', 'withdrawalsCounters', '/api/v2/withdrawals/counters'],
  ['countContracts', 'smartContractsCounters', '/api/v2/smart-contracts/counters'],
  ['sumBlocks', 'transactionsStats', '/api/v2/transactions/stats'],
  ['listContractActivity', 'statsHotSmartContracts', '/api/v2/stats/hot-smart-contracts?scale=30d&sort=total_gas_used'],
];

for (const [member, name, path] of UNAVAILABLE) {
  t.test(`without ${member}: ${name} answers 501, not available from this store`, async (t) => {
    const endpoint = ENDPOINTS[name];
    const what = endpoint.mayLack;
    if (what === undefined) return t.fail(`${name} declares no mayLack`);
    t.equal((await full.handle(request(path))).status, 200, `${path}: 200 from the full store`);
    const ex = explorer(lacking([member]));
    const answer = await get(ex, path);
    t.same(answer, { status: 501, body: JSON.stringify({ message: queryUnavailableMessage(what) }) }, path);
    for (const form of ['instance', 'multichain'] as const) t.same(validateOurs(form, endpoint.route, 501, JSON.parse(answer.body)), [], `${form}: our document describes it`);
    t.equal((await get(ex, `/api/v2/blocks`)).status, 200, 'the rest of the API answers');
  });
}

t.test('without getProxyHistory: every address answers as no proxy, the rest unchanged', async (t) => {
  const proxied = createMemoryStore();
  const [b1, b2] = [block(1), block(2)];
  const [x1, x2] = [tx(b1, 0), tx(b2, 0)];
  const [proxy, implementation] = [addr(0x9e01), addr(0x1401)];
  const change: ProxyRecord = { proxy, type: 'eip1967', implementations: [implementation], beacon: null, blockNumber: 1, transactionHash: x1.hash, transactionIndex: 0 };
  await proxied.writeBlocks([bundle(b1, { transactions: [x1], addresses: [address(b1, proxy, null)], proxies: [change] }), bundle(b2, { transactions: [x2] })]);
  const [withHistory, without] = [explorer(proxied), explorer(lacking(['getProxyHistory'], proxied))];
  const read = async (ex: ReturnType<typeof explorer>) => JSON.parse((await get(ex, `/api/v2/addresses/${proxy}`)).body) as Record<string, unknown>;
  const [a, b] = [await read(withHistory), await read(without)];
  t.equal(a.proxy_type, 'eip1967', 'a proxy with its history');
  t.equal((a.implementations as unknown[]).length, 1);
  t.same({ proxy_type: b.proxy_type, implementations: b.implementations }, { proxy_type: null, implementations: [] }, 'none without it');
  const { proxy_type: _a, implementations: _ai, ...restA } = a;
  const { proxy_type: _b, implementations: _bi, ...restB } = b;
  t.same(restB, restA, 'every other field unchanged');
  t.equal((await get(without, '/api/v2/transactions?filter=validated')).status, 200, 'lists render');
});
