/**
 * /advanced-filters walks: the merged stream of transactions, internal transactions and token
 * transfer entries, counted by an oracle over the fixture chain's bundles (independent of any
 * adapter and of lib/advanced), for each filter; then the behaviour beyond counts. Its own test
 * file per store (advanced-<store>.test.ts), so the main conformance files keep their time.
 */
// the records' unbranded address (the public `Address` is the typed client's branded one)
import type { Address } from '../../lib/domain/records.ts';
import type { BlockBundle, Hex } from '../../lib/index.ts';
import type { FixtureChain } from '../../fixture/index.ts';
import type { Test } from 'tap';
import { hex } from '../../lib/index.ts';
import type { Body, Loaded, Walk } from '../support/explorer.ts';
import tap from 'tap';
import { loadExplorer, okGetter, walk } from '../support/explorer.ts';
import { validatingExplorer } from '../support/openapiOurs.ts';
import type { StoreName } from '../support/stores.ts';
import { storeFactories } from '../support/stores.ts';

type Key = readonly (number | bigint | string)[];

export interface AdvancedWalkCase {
  readonly name: string;
  readonly path: string;
  readonly query?: Record<string, string>;
  readonly id: (item: Body) => string;
  readonly sortKey?: (item: Body) => Key;
  readonly expected: number;
  readonly minRows?: number;
}

/** One item of the oracle's stream. */
export interface OracleItem {
  readonly kind: 'transaction' | 'internal' | 'transfer';
  readonly hash: string;
  readonly block: number;
  readonly timestamp: number;
  readonly from: Address;
  readonly to: Address | null;
  readonly value: bigint | null;
  readonly methodId: Hex | null;
  readonly tokenType: string | null;
  readonly tokenAddress: Address | null;
}

/** Every item of the unfiltered stream, from the consensus bundles. */
export function oracleItems(chain: FixtureChain): OracleItem[] {
  const bundles: BlockBundle[] = chain.bundles.filter((b) => b.block.consensus);
  const out: OracleItem[] = [];
  for (const b of bundles) {
    for (const tx of b.transactions) {
      out.push({ kind: 'transaction', hash: tx.hash, block: b.block.number, timestamp: b.block.timestamp, from: tx.from, to: tx.to, value: tx.value, methodId: tx.methodId, tokenType: null, tokenAddress: null });
    }
    for (const it of b.internalTransactions) {
      if (it.type === 'call' && it.index === 0) continue;
      out.push({ kind: 'internal', hash: it.transactionHash, block: b.block.number, timestamp: b.block.timestamp, from: it.from, to: it.to, value: it.value, methodId: null, tokenType: null, tokenAddress: null });
    }
    for (const tt of b.tokenTransfers) {
      const entries = tt.tokenIds.length > 1 || tt.amounts.length > 1 ? Math.max(tt.tokenIds.length, tt.amounts.length) : 1;
      for (let i = 0; i < entries; i++) {
        out.push({ kind: 'transfer', hash: tt.transactionHash, block: b.block.number, timestamp: b.block.timestamp, from: tt.from, to: tt.to, value: null, methodId: tt.methodId, tokenType: tt.tokenType, tokenAddress: tt.tokenAddress });
      }
    }
  }
  return out;
}

const num = (v: unknown): number => v as number;
/** [block, transaction index, rank (tx 2, transfer 1, internal 0), sub index, batch index] */
export const advancedKey = (i: Body): Key => {
  const it = i['internal_transaction_index'];
  const tt = i['token_transfer_index'];
  const rank = it !== null ? 0 : tt !== null ? 1 : 2;
  return [num(i['block_number']), num(i['transaction_index']), rank, it !== null ? num(it) : tt !== null ? num(tt) : 0, num(i['token_transfer_batch_index'] ?? 0)];
};
export const advancedId = (i: Body): string => advancedKey(i).join(':');

const ZERO = '0x0000000000000000000000000000000000000000' as Address;
const iso = (s: number): string => new Date(s * 1000).toISOString();

export function advancedWalkCases(chain: FixtureChain): AdvancedWalkCase[] {
  const f = chain.facts;
  const items = oracleItems(chain);
  const count = (keep: (i: OracleItem) => boolean) => items.filter(keep).length;
  const hot = f.hotAddress;
  const c = (name: string, query: Record<string, string>, keep: (i: OracleItem) => boolean, minRows?: number): AdvancedWalkCase => ({
    name: `advanced filters, ${name}`,
    path: '/advanced-filters',
    query,
    id: advancedId,
    sortKey: advancedKey,
    expected: count(keep),
    ...(minRows === undefined ? {} : { minRows }),
  });
  const blocks = [...new Set(items.map((i) => i.block))].sort((a, b) => a - b);
  const lo = blocks[Math.floor(blocks.length / 4)] as number;
  const hi = blocks[Math.floor((blocks.length * 3) / 4)] as number;
  const tsOf = (n: number) => chain.bundles.find((b) => b.block.consensus && b.block.number === n)?.block.timestamp ?? 0;
  const [from, to] = [tsOf(lo), tsOf(hi)];
  const oneEth = 10n ** 18n;
  return [
    c('no filter', {}, () => true),
    c('from or to the hot address', { from_address_hashes_to_include: hot, to_address_hashes_to_include: hot }, (i) => i.from === hot || i.to === hot),
    c('from the hot address, excluding transfers to alice', { from_address_hashes_to_include: hot, to_address_hashes_to_exclude: f.eoas.alice, address_relation: 'AND' }, (i) => i.from === hot && i.to !== null && i.to !== f.eoas.alice),
    c('NFT transfers not from the zero address', { transaction_types: 'ERC-721,ERC-1155', from_address_hashes_to_exclude: ZERO }, (i) => (i.tokenType === 'ERC-721' || i.tokenType === 'ERC-1155') && i.from !== ZERO),
    c('ERC-1155 and ERC-721 transfers', { transaction_types: 'erc-1155,ERC-721' }, (i) => i.tokenType === 'ERC-1155' || i.tokenType === 'ERC-721'),
    c('coin transfers (value > 0)', { transaction_types: 'COIN_TRANSFER' }, (i) => i.kind !== 'transfer' && (i.value ?? 0n) > 0n),
    c('methods transfer (selector and name)', { methods: '0xA9059CBB,bad', methods_names: 'approve' }, (i) => i.kind !== 'internal' && (i.methodId === hex('0xa9059cbb') || i.methodId === hex('0x095ea7b3')), 60),
    c('the ERC-20 token and native coin', { token_contract_address_hashes_to_include: `native,${f.tokens.erc20}` }, (i) => i.kind !== 'transfer' || i.tokenAddress === f.tokens.erc20),
    c('age window', { age_from: iso(from), age_to: iso(to) }, (i) => i.timestamp >= from && i.timestamp <= to),
    c(
      'coin amount from 0.5 to 2 whole units',
      { amount_from: '0.5', amount_to: '2', token_contract_address_hashes_to_include: 'native' },
      (i) => i.kind !== 'transfer' && (i.value ?? 0n) * 2n >= oneEth && (i.value ?? 0n) <= 2n * oneEth,
      1,
    ),
  ];
}

const itemsOf = (b: Body): Body[] => b['items'] as Body[];
const kindOf = (i: Body): 'transaction' | 'internal' | 'transfer' =>
  i['internal_transaction_index'] !== null ? 'internal' : i['token_transfer_index'] !== null ? 'transfer' : 'transaction';

/** Behaviour of /advanced-filters beyond counts: ties, fees, search_params, source gating, type rules. */
export async function advancedBehaviourSuite(t: Test, loaded: Loaded): Promise<void> {
  const { explorer: ex, chain } = loaded;
  const f = chain.facts;
  const get = okGetter(ex);

  await t.test('advanced filters: the three kinds tie inside one transaction, pages split them, fee once per run', async (t) => {
    const w = walked.get(loaded) ?? (await walk(ex, '/api/v2/advanced-filters', { items_count: '7' }));
    const byHash = new Map<string, Body[]>();
    for (const i of w.items) byHash.set(i['hash'] as string, [...(byHash.get(i['hash'] as string) ?? []), i]);
    const mixed = [...byHash.values()].filter((xs) => new Set(xs.map(kindOf)).size === 3);
    t.ok(mixed.length > 0, 'some transaction has a transaction item, transfers and internal transactions');
    const rank = { transaction: 2, transfer: 1, internal: 0 } as const;
    t.ok(
      mixed.every((xs) => xs.every((x, i) => i === 0 || rank[kindOf(xs[i - 1] as Body)] >= rank[kindOf(x)])),
      'within a transaction: the transaction, then its transfers, then its internal transactions',
    );
    t.ok(
      w.cursors.some((c) => c['internal_transaction_index'] !== null || c['token_transfer_index'] !== null),
      'some page ends on a transfer or an internal transaction (a cursor inside a transaction)',
    );
    // the rule runs down one page (the first item of a page shows its fee)
    const page = itemsOf(await get('/advanced-filters', { items_count: '100' }));
    let repeatedFees = 0;
    let bad = 0;
    page.forEach((x, i) => {
      const prev = page[i - 1];
      if (prev !== undefined && prev['hash'] === x['hash'] && kindOf(x) !== 'internal') {
        repeatedFees += 1;
        if (x['fee'] !== '0') bad += 1;
      }
    });
    t.ok(repeatedFees > 0, 'runs of one transaction exist');
    t.equal(bad, 0, 'a non-internal item repeating the previous hash shows fee "0"');
    const batch = w.items.filter((i) => kindOf(i) === 'transfer' && (i['token_transfer_batch_index'] as number) > 1);
    t.ok(batch.length > 0, 'ERC-1155 batches are unnested (batch index counted from the end)');
  });

  await t.test('advanced filters: search_params names methods and tokens', async (t) => {
    const b = await get('/advanced-filters', {
      methods: '0xa9059cbb,0x42842e0e,0x12345678',
      methods_names: 'approve',
      token_contract_address_hashes_to_include: `native,${f.tokens.erc20}`,
      token_contract_address_hashes_to_exclude: f.unknownAddress,
    });
    const sp = b['search_params'] as Body;
    t.same(sp['methods'], { '0xa9059cbb': 'transfer', '0x42842e0e': 'safeTransferFrom', '0x095ea7b3': 'approve' }, 'popular, then known ABIs; unknown selectors left out');
    const tokens = sp['tokens'] as Record<string, Body>;
    t.same(Object.keys(tokens), [f.tokens.erc20], 'tokens that exist, native and unknown addresses left out');
    t.equal((tokens[f.tokens.erc20]?.['address_hash'] as string).toLowerCase(), f.tokens.erc20, 'a token object');
  });

  await t.test('advanced filters: amounts, sources and types as Blockscout', async (t) => {
    const first = async (q: Record<string, string>) => itemsOf(await get('/advanced-filters', { ...q, items_count: '100' }));
    const all = await first({});
    t.same(await first({ amount_from: '1', amount_to: '1' }), [], 'amount_from = amount_to → nothing');
    t.same(await first({ amount_to: '0' }), [], 'amount_to ≤ 0 → nothing');
    t.same(await first({ amount_from: '-5' }), all, 'amount_from ≤ 0 is ignored');
    t.same(await first({ amount_from: 'abc', transaction_types: 'NOPE', age_from: '2023-01-01' }), all, 'unreadable values are dropped');
    const natives = itemsOf(await get('/advanced-filters', { token_contract_address_hashes_to_include: 'native' }));
    t.ok(natives.length > 0 && natives.every((i) => kindOf(i) !== 'transfer'), 'include native only → no transfers');
    const tokensOnly = itemsOf(await get('/advanced-filters', { token_contract_address_hashes_to_include: f.tokens.erc20 }));
    t.ok(tokensOnly.length > 0 && tokensOnly.every((i) => kindOf(i) === 'transfer' && i['type'] === 'ERC-20'), 'include a token only → its transfers only');
    const noNative = itemsOf(await get('/advanced-filters', { token_contract_address_hashes_to_exclude: 'native' }));
    t.ok(noNative.length > 0 && noNative.every((i) => kindOf(i) === 'transfer'), 'exclude native → transfers only');
    const creations = (await walk(ex, '/api/v2/advanced-filters', { transaction_types: 'CONTRACT_CREATION' })).items;
    t.ok(creations.length > 0 && creations.every((i) => i['to'] === null && i['type'] === 'contract_creation'), 'CONTRACT_CREATION → `to` null');
    const calls = itemsOf(await get('/advanced-filters', { transaction_types: 'CONTRACT_INTERACTION' }));
    t.ok(calls.length > 0 && calls.every((i) => (i['to'] as Body)['is_contract'] === true && i['type'] === 'contract_interaction'), 'CONTRACT_INTERACTION → `to` has code');
    const hot = f.hotAddress;
    const and = (await walk(ex, '/api/v2/advanced-filters', { from_address_hashes_to_include: hot, to_address_hashes_to_include: hot, address_relation: 'and' })).items;
    t.ok(and.every((i) => (i['from'] as Body)['hash'] === (i['to'] as Body | null)?.['hash']), 'address_relation=and needs both sides');
  });

  await t.test('advanced filters: /methods', async (t) => {
    const all = (await get('/advanced-filters/methods')) as unknown as Body[];
    t.equal(all.length, 23, 'the 23 popular methods');
    t.same(all[0], { method_id: '0xa9059cbb', name: 'transfer' });
    t.same(await get('/advanced-filters/methods', { q: 'TRANSFER' }), [{ method_id: '0xa9059cbb', name: 'transfer' }], 'a name, any case');
    t.same(await get('/advanced-filters/methods', { q: 'selltouniswap' }), [], 'camel-case popular names are not found by name (Blockscout lower-cases q)');
    t.same(await get('/advanced-filters/methods', { q: '0xdeadbeef' }), [{ method_id: '0xdeadbeef', name: '' }], 'an unknown selector, unnamed');
    t.same(await get('/advanced-filters/methods', { q: 'safeTransferFrom' }), [{ method_id: '0x42842e0e', name: 'safeTransferFrom' }], 'a known ABI by name');
  });
}

/** The unfiltered walk at page size 7, kept for the behaviour checks. */
const walked = new WeakMap<Loaded, Walk>();

/** Walk each case at page sizes 7 and 50: every item once, all of them, in order, full pages. */
async function advancedWalkSuite(t: Test, loaded: Loaded): Promise<void> {
  for (const c of advancedWalkCases(loaded.chain)) {
    await t.test(c.name, async (t) => {
      const small = await walk(loaded.explorer, `/api/v2${c.path}`, { ...c.query, items_count: '7' });
      if (c.query === undefined || Object.keys(c.query).length === 0) walked.set(loaded, small);
      const normal = await walk(loaded.explorer, `/api/v2${c.path}`, { ...c.query });
      const ids = small.items.map(c.id);
      t.equal(new Set(ids).size, ids.length, 'every item appears once');
      t.equal(ids.length, c.expected, `all ${c.expected} items are listed`);
      t.ok(c.expected >= (c.minRows ?? 120), `the fixture gives this list ≥ ${c.minRows ?? 120} items`);
      t.same(normal.items.map(c.id), ids, 'the same items in the same order at page size 50');
      t.equal(small.pages, Math.max(1, Math.ceil(c.expected / 7)), 'full pages of 7 until the last');
      const keys = small.items.map(advancedKey);
      const bad = keys.findIndex((k, i) => i > 0 && compare(keys[i - 1] as Key, k) <= 0);
      t.equal(bad, -1, `strictly descending${bad >= 0 ? ` (breaks at item ${bad})` : ''}`);
    });
  }
}

function compare(a: Key, b: Key): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** The advanced-filter suite over one named store when SCOUTKIT_STORES selects it. */
export async function runAdvancedOn(name: StoreName): Promise<void> {
  const factory = (await storeFactories()).find((s) => s.name === name);
  if (factory === undefined) {
    tap.pass(`${name}: not selected by SCOUTKIT_STORES, or unreachable off CI`);
    return;
  }
  const plain = await loadExplorer(() => factory.open());
  tap.teardown(async () => plain.store.close?.());
  const checked = validatingExplorer(plain.explorer);
  const loaded = { ...plain, explorer: checked.explorer };
  await tap.test(`${name}: advanced filters, every item once at two page sizes`, (t) => advancedWalkSuite(t, loaded));
  await tap.test(`${name}: advanced filters, behaviour`, (t) => advancedBehaviourSuite(t, loaded));
  await tap.test(`${name}: every answer validates against our OpenAPI document`, async (t) => {
    t.same(checked.failures, [], 'no answer outside our document');
    t.ok(checked.validated() > 500, `${checked.validated()} answers validated`);
  });
}
