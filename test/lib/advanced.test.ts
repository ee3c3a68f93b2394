/**
 * lib/advanced: the merged stream under a tiny scan budget (short pages that stop where a list
 * stopped) sees exactly the items of an unbounded walk, in the same order; filter parsing.
 */
import t from 'tap';
import { createMemoryStore } from '../../adapters/memory/index.ts';
import { loadFixtureChain } from '../../fixture/index.ts';
import { parseAdvancedFilter, parseAge, parseDecimal, inAmountRange } from '../../lib/advanced/filter.ts';
import type { AdvancedFilterQuery } from '../../lib/advanced/filter.ts';
import type { ItemKey } from '../../lib/advanced/stream.ts';
import { keyId, listAdvancedFilter } from '../../lib/advanced/stream.ts';

const store = createMemoryStore();
const chain = await loadFixtureChain(store);
const f = chain.facts;

async function walkAll(q: AdvancedFilterQuery, size: number, budget: number): Promise<{ ids: string[]; pages: number; short: number }> {
  const filter = parseAdvancedFilter(q);
  const ids: string[] = [];
  let after: ItemKey | null = null;
  let pages = 0;
  let short = 0;
  for (;;) {
    const page = await listAdvancedFilter(store, filter, after, size, budget);
    pages += 1;
    ids.push(...page.rows.map((r) => keyId(r.key)));
    if (page.next === null) break;
    if (page.rows.length < size) short += 1;
    after = page.next;
    if (pages > 10_000) throw new Error('no end');
  }
  return { ids, pages, short };
}

for (const [label, q] of [
  ['unfiltered', {}],
  ['an exclude list (checked on the rows)', { from_address_hashes_to_exclude: f.hotAddress, to_address_hashes_to_exclude: f.eoas.alice, address_relation: 'and' }],
  ['an amount range', { amount_from: '0.0001', amount_to: '5' }],
  ['include lists on both sides (one seek per address and side)', { from_address_hashes_to_include: `${f.hotAddress},${f.eoas.alice}`, to_address_hashes_to_include: f.eoas.bob }],
  ['an include list longer than the seek limit (checked on the rows)', { to_address_hashes_to_include: [f.hotAddress, ...f.airdropRecipients.slice(0, 25)].join(',') }],
] as const) {
  t.test(`scan budget: ${label}`, async (t) => {
    const full = await walkAll(q, 9, 1_000_000);
    const tight = await walkAll(q, 9, 3);
    t.ok(full.ids.length > 0, `${full.ids.length} items`);
    t.equal(new Set(tight.ids).size, tight.ids.length, 'every item once under the budget');
    t.same(tight.ids, full.ids, 'the same items in the same order');
    t.equal(full.short, 0, 'without a budget every page but the last is full');
  });
}

t.test('a tight budget gives short pages with a cursor, never a lost item', async (t) => {
  const tight = await walkAll({ amount_from: '1', amount_to: '1000' }, 9, 2);
  t.ok(tight.short > 0, `${tight.short} short pages`);
});

t.test('filter parsing as Blockscout reads the strings', async (t) => {
  const p = parseAdvancedFilter({
    transaction_types: 'coin_transfer,erc-20,ZRC-2,junk',
    methods: '0xA9059CBB,0x1234,zz,0xa9059cbb',
    methods_names: ' Approve ,sellToUniswap,nope',
    from_address_hashes_to_include: `${f.hotAddress.toUpperCase().replace('0X', '0x')},0x12`,
    from_address_hashes_to_exclude: f.hotAddress,
    to_address_hashes_to_exclude: f.eoas.alice,
    address_relation: 'XOR',
    token_contract_address_hashes_to_include: `Native,${f.tokens.erc20}`,
  });
  t.same(p.coinTypes, ['COIN_TRANSFER']);
  t.same(p.tokenTypes, ['ERC-20']);
  t.same(p.methods, ['0xa9059cbb', '0x095ea7b3', '0xd9627aa4'], 'selectors lower-cased, unique; names trimmed and lower-cased');
  t.same(p.from, { include: [] }, 'include − exclude');
  t.same(p.to, { exclude: [f.eoas.alice] });
  t.equal(p.relation, 'or', 'anything but `and` is `or`');
  t.same(p.sources, { transactions: true, internal: true, transfers: true });
  t.same(p.tokens, { include: [f.tokens.erc20] }, '`native` leaves the token list');
  t.same(parseAdvancedFilter({ transaction_types: 'ERC-721' }).sources, { transactions: false, internal: false, transfers: true });
  t.same(parseAdvancedFilter({ transaction_types: 'CONTRACT_CREATION' }).sources, { transactions: true, internal: true, transfers: false });
  t.same(parseAdvancedFilter({ transaction_types: 'COIN_TRANSFER,CONTRACT_INTERACTION,CONTRACT_CREATION' }).coinTypes, [], 'all three = any');
  t.equal(parseAge('2024-01-01 00:00:00+01:00'), 1704063600);
  t.equal(parseAge('2024-01-01T00:00:00.5Z'), 1704067200.5);
  t.equal(parseAge('2024-01-01'), undefined, 'a bare date is ignored');
  t.equal(parseAge('2024-01-01T00:00:00'), undefined, 'no offset is ignored');
  t.same(parseDecimal('1.50'), { num: 150n, scale: 2 });
  t.same(parseDecimal('2e3'), { num: 2000n, scale: 0 });
  t.equal(parseDecimal('1.2.3'), undefined);
  const range = parseAdvancedFilter({ amount_from: '0.5', amount_to: '1' }).amount;
  t.ok(inAmountRange(range, 5n * 10n ** 17n, 18), 'inclusive lower bound, in whole units');
  t.ok(inAmountRange(range, 10n ** 18n, 18), 'inclusive upper bound');
  t.notOk(inAmountRange(range, 10n ** 18n + 1n, 18));
  t.ok(inAmountRange(range, 1n, 0), 'a token without decimals: 1 unit');
  t.same(parseAdvancedFilter({ amount_from: '2', amount_to: '1' }).amount, { kind: 'empty' });
});

t.test('a long include list (no seeks) lists what the seeks would', async (t) => {
  const recipients = f.airdropRecipients.slice(0, 25);
  const long = await walkAll({ to_address_hashes_to_include: [f.hotAddress, ...recipients].join(',') }, 50, 1_000_000);
  const parts = await Promise.all([f.hotAddress, ...recipients].map((a) => walkAll({ to_address_hashes_to_include: a }, 50, 1_000_000)));
  const union = [...new Set(parts.flatMap((p) => p.ids))];
  const byKey = (a: string, b: string) => {
    const [x, y] = [a.split(':').map(Number), b.split(':').map(Number)];
    const d = x.findIndex((v, i) => v !== y[i]);
    return d < 0 ? 0 : (y[d] as number) - (x[d] as number);
  };
  t.ok(long.ids.length > 70, `${long.ids.length} items`);
  t.same(long.ids, union.sort(byKey), 'the union of the single-address lists, in order');
});

t.test('the age window’s block bounds: the linear answer, in a few probes', async (t) => {
  const { blocksOfAge } = await import('../../lib/advanced/stream.ts');
  // block times: irregular (bursts, equal times, long gaps), never decreasing
  const times: number[] = [];
  let ts = 1_000;
  for (let n = 0; n < 300; n++) {
    ts += n % 37 === 0 ? 5_000 : n % 5 === 0 ? 0 : 1 + (n % 13);
    times.push(ts);
  }
  let probes = 0;
  const ds = {
    getHighestBlockNumber: async () => times.length - 1,
    getBlock: async (ref: { number: number }) => {
      probes += 1;
      const v = times[ref.number];
      return v === undefined ? null : { timestamp: v };
    },
  } as unknown as Parameters<typeof blocksOfAge>[0];
  const first = (ok: (x: number) => boolean) => {
    const i = times.findIndex(ok);
    return i === -1 ? times.length : i;
  };
  let checked = 0;
  let most = 0;
  for (const from of [0, times[0] as number, ...times.filter((_, i) => i % 7 === 0).flatMap((x) => [x - 1, x, x + 1]), 1e12]) {
    for (const to of [from, from + 3, from + 6_000]) {
      probes = 0;
      const range = await blocksOfAge(ds, { from, to });
      most = Math.max(most, probes);
      t.same(range, { from: first((x) => x >= from), to: first((x) => x > to) - 1 }, `${from}…${to}`, { diagnostic: false });
      checked += 1;
    }
  }
  t.ok(checked > 100, `${checked} windows`);
  t.ok(most <= 36, `at most ${most} probes for both bounds over ${times.length} blocks (two binary searches: 18; bound: twice that)`);
  // a regular chain: interpolation lands at once
  const regular = Array.from({ length: 10_000 }, (_, n) => 5_000 + 12 * n);
  const ds2 = {
    getHighestBlockNumber: async () => regular.length - 1,
    getBlock: async (ref: { number: number }) => {
      probes += 1;
      const v = regular[ref.number];
      return v === undefined ? null : { timestamp: v };
    },
  } as unknown as Parameters<typeof blocksOfAge>[0];
  probes = 0;
  t.same(await blocksOfAge(ds2, { from: 5_000 + 12 * 3_333 + 5, to: 5_000 + 12 * 7_000 }), { from: 3_334, to: 7_000 });
  t.ok(probes <= 10, `${probes} probes on a regular chain of 10,000 blocks (a binary search: 28)`);
});
