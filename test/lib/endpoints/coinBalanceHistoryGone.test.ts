// /addresses/{h}/coin-balance-history when a reorg removed blocks after their balances were read:
// an item's timestamp comes from the blocks that are still there, and a change whose block is
// gone is gone with it — never a null block_timestamp, which the official schema forbids.
import t from 'tap';
import { createMemoryStore } from '../../../adapters/memory/index.ts';
import { loadFixtureChain } from '../../../fixture/index.ts';
import { createExplorer, toJson } from '../../../lib/index.ts';
import type { DataSource } from '../../../lib/ports.ts';

const store = createMemoryStore();
const chain = await loadFixtureChain(store);
const address = chain.facts.hotAddress;

/** the store with these block numbers unknown to getBlock (every other member the store's own) */
function without(numbers: ReadonlySet<number>): DataSource {
  return new Proxy(store, {
    get: (target, key) => {
      if (key === 'getBlock') {
        return async (k: Parameters<DataSource['getBlock']>[0]) => ('number' in k && numbers.has(k.number) ? null : target.getBlock(k));
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

interface Item {
  readonly block_number: number;
  readonly block_timestamp: string | null;
}
const history = async (ds: DataSource): Promise<readonly Item[]> => {
  const r = await createExplorer({ chains: { '1': ds } }).handle({ path: `/api/v2/addresses/${address}/coin-balance-history`, query: {} });
  t.equal(r.status, 200);
  return (JSON.parse(toJson(r.body)) as { items: Item[] }).items;
};

t.test("an end block gone: each block's own timestamp; a change whose block is gone left out", async (t) => {
  const all = await history(store);
  t.ok(all.length >= 3, `${all.length} changes of the hot address`);
  const newest = all[0] as Item;
  const oldest = all[all.length - 1] as Item;
  const seen = await history(without(new Set([newest.block_number])));
  t.same(
    seen.map((i) => i.block_number),
    all.slice(1).map((i) => i.block_number),
    'the change of the block that is gone is left out, the others kept',
  );
  for (const item of seen) {
    const block = await store.getBlock({ number: item.block_number });
    t.equal(item.block_timestamp, new Date((block?.timestamp ?? 0) * 1000).toISOString().replace(/Z$/, '000Z'), `block ${item.block_number}: its own timestamp`);
  }
  t.same(await history(without(new Set(all.map((i) => i.block_number)))), [], 'every block gone: no item');
  t.equal((await history(without(new Set([oldest.block_number])))).length, all.length - 1);
});
