/**
 * listTokens with a prefix answers two ways (adapters/sql/queries/listTokens.ts): fewer matches
 * than the cap are read from the name/symbol ranges and ordered; the cap or more walk the list's
 * order testing the prefix, within a budget of entries (short of a page: read and ordered).
 * Over the fixture, with the plan set so that each way (and a cap right at a prefix's match
 * count, a budget that runs out on some pages) runs, every walk by cursor — both orders, with and without type
 * filters, small and full pages — must visit exactly the memory store's tokens, once each, in
 * its order.
 */
import t from 'tap';
import { createMemoryStore } from '../../../adapters/memory/index.ts';
import { openSqlStore } from '../../../adapters/sql/index.ts';
import { dialectOf } from '../../../adapters/sql/dialect.ts';
import { sqlContext } from '../../../adapters/sql/queries/context.ts';
import { listTokens } from '../../../adapters/sql/queries/listTokens.ts';
import type { PrefixPlan } from '../../../adapters/sql/queries/listTokens.ts';
import type { Order, TokenListCursor, TokenListFilter, TokenRecord, TokenType } from '../../../lib/index.ts';
import { loadFixtureChain } from '../../../fixture/index.ts';
import { databaseUrl, storeFactories } from '../../support/stores.ts';

type List = (filter: TokenListFilter, page: { after: TokenListCursor | null; limit: number; order: Order }) => Promise<readonly TokenRecord[]>;

/** Every token of a filter, page by page from the cursor of each page's last row. */
async function walk(list: List, filter: TokenListFilter, order: Order, limit: number): Promise<string[]> {
  const out: string[] = [];
  let after: TokenListCursor | null = null;
  for (let pages = 0; pages < 1000; pages++) {
    const rows = await list(filter, { after, limit, order });
    out.push(...rows.map((r) => r.address));
    const last = rows[rows.length - 1];
    if (rows.length < limit || last === undefined) return out;
    after = { holdersCount: last.holdersCount, name: last.name, address: last.address };
  }
  throw new Error('walk: no end');
}

const memory = createMemoryStore();
await loadFixtureChain(memory);
const PREFIXES = ['bulk', 'BULK ERC-7', 'b1', 'fixture', 'usd', 'zzz'];
const TYPES: (readonly TokenType[] | undefined)[] = [undefined, ['ERC-721'], ['ERC-20', 'ERC-1155']];
const count = async (prefix: string) => (await walk((f, p) => memory.listTokens(f, p), { prefix }, 'desc', 1000)).length;
t.ok((await count('bulk')) > 200, 'the fixture has a prefix shared by most tokens');

const selected = (await storeFactories()).map((f) => f.name).filter((n) => n !== 'memory');
if (selected.length === 0) t.pass('no SQL store selected');

for (const name of selected) {
  await t.test(`${name}: prefix walks equal the memory store's, whichever way they are answered`, async (t) => {
    const schema = `scoutkit_list_tokens_${process.pid}`;
    const store = name === 'sqlite' ? await openSqlStore('sqlite::memory:') : await openSqlStore(databaseUrl(), { searchPath: schema, poolSize: 2 });
    t.teardown(async () => {
      if (name === 'postgres') await store.knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]);
      await store.close();
    });
    await loadFixtureChain(store);
    const c = sqlContext(store.reader, dialectOf(store.knex));
    // sortCap 1: always walked — to the end (a huge budget), short of a page now and then
    // (60 entries), never far enough (1: then sorted); a huge cap: always sorted; 'bulk' matches
    // by name only (symbols are B0, B1, …): walked at a cap of its count, sorted at one more
    const bulk = await count('bulk');
    const plans: PrefixPlan[] = [
      { sortCap: 1, walkBudget: 1_000_000 },
      { sortCap: 1, walkBudget: 60 },
      { sortCap: 1, walkBudget: 1 },
      { sortCap: bulk, walkBudget: 1_000_000 },
      { sortCap: bulk + 1, walkBudget: 1_000_000 },
      { sortCap: 1_000_000, walkBudget: 1_000_000 },
    ];
    for (const plan of plans) {
      let mismatches = 0;
      let walks = 0;
      for (const prefix of PREFIXES) {
        for (const types of TYPES) {
          const filter = types === undefined ? { prefix } : { prefix, types };
          for (const order of ['desc', 'asc'] as const) {
            for (const limit of [7, 50]) {
              const expected = await walk((f, p) => memory.listTokens(f, p), filter, order, limit);
              const actual = await walk((f, p) => listTokens(c, f, p, plan), filter, order, limit);
              walks++;
              if (new Set(actual).size !== actual.length || actual.join() !== expected.join()) {
                mismatches++;
                if (mismatches <= 5) t.strictSame(actual, expected, `${JSON.stringify(plan)}, ${JSON.stringify(filter)}, ${order}, ${limit} a page`);
              }
            }
          }
        }
      }
      t.equal(mismatches, 0, `${JSON.stringify(plan)}: ${walks} walks visit each token once, in the memory store's order`);
    }
  });
}
