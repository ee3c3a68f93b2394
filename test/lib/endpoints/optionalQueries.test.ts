/**
 * The optional queries of the DataSource port (lib/ports/dataSource.ts: OptionalQuery), each
 * hidden from the fixture store: the host then gives the answer each member's doc states — the
 * same bytes from the wider query (listBlockFigures → listBlocks; getTransactions → one
 * getTransaction each; getCoinBalance → the coin balance history), or the answer for data the
 * indexer did not keep (no trace: 404; no state changes: an empty list; no name index: a search
 * without contracts found by name).
 */
import t from 'tap';
import { createMemoryStore } from '../../../adapters/memory/index.ts';
import { loadFixtureChain } from '../../../fixture/index.ts';
import { RAW_TRACE_UNAVAILABLE } from '../../../lib/errors.ts';
import { createExplorer, toJson } from '../../../lib/index.ts';
import type { DataSource, OptionalQuery } from '../../../lib/ports.ts';

const store = createMemoryStore();
const chain = await loadFixtureChain(store);

/** the store without these members (every other member bound to the store itself) */
function lacking(members: readonly OptionalQuery[]): DataSource {
  const hidden = new Set<PropertyKey>(members);
  return new Proxy(store, {
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
