/**
 * The average block time behind `/blocks/{n}/countdown`, on fixture chains whose block times
 * are rewritten: Blockscout's window (newest 100 skipped, next 100), the short-chain fallback,
 * timestamp order with number gaps, rounding, exact large answers, and the empty store.
 */
import { readFileSync } from 'node:fs';
import t from 'tap';
import type { Test } from 'tap';
import { createMemoryStore } from '../../../adapters/memory/index.ts';
import type { BlockBundle } from '../../../lib/index.ts';
import { createExplorer, toJson } from '../../../lib/index.ts';
import { buildFixtureChain } from '../../../fixture/index.ts';
import { validateOurs } from '../../support/openapiOurs.ts';

const chain = buildFixtureChain();
const BASE = 1_800_000_000;

/** The records of a bundle's list stamped with its block's time `from`, restamped `to` (the sink checks they agree). */
function restamp(records: unknown, from: number, to: number): unknown {
  if (!Array.isArray(records)) return records;
  return records.map((r: unknown) => (typeof r === 'object' && r !== null && 'timestamp' in r && r.timestamp === from ? { ...r, timestamp: to } : r));
}

/** The fixture's first `count` blocks, block n (and its records: transactions, withdrawals, ...) stamped `BASE + secondsOf(n)`. */
function retimed(count: number, secondsOf: (n: number) => number): BlockBundle[] {
  return chain.bundles.slice(0, count).map((b) => {
    const timestamp = BASE + secondsOf(b.block.number);
    const lists = Object.fromEntries(Object.entries(b).map(([k, v]) => [k, restamp(v, b.block.timestamp, timestamp)]));
    return { ...b, ...lists, block: { ...b.block, timestamp } } as BlockBundle;
  });
}

async function explorerOver(bundles: readonly BlockBundle[]) {
  const store = createMemoryStore();
  if (bundles.length > 0) await store.writeBlocks(bundles);
  return createExplorer({ chains: { '1': store } });
}

type Body = Record<string, unknown>;
async function countdown(t: Test, bundles: readonly BlockBundle[], target: number | string): Promise<{ instance: Body; multichain: Body; status: number }> {
  const ex = await explorerOver(bundles);
  const a = await ex.handle({ path: `/api/v2/blocks/${target}/countdown` });
  const b = await ex.handle({ path: `/1/api/v2/blocks/${target}/countdown` });
  t.equal(b.status, a.status, 'both forms answer alike');
  for (const [form, r] of [['instance', a], ['multichain', b]] as const) {
    t.same(validateOurs(form, '/blocks/{block_number_param}/countdown', r.status, JSON.parse(toJson(r.body))), [], `${form} ${target}: our document`);
  }
  return { instance: a.body as Body, multichain: b.body as Body, status: a.status };
}

const headOf = (bundles: readonly BlockBundle[]): number => (bundles[bundles.length - 1] as BlockBundle).block.number;

t.test('a long chain: the 100 blocks below the newest 100 set the pace', async (t) => {
  // blocks 1..50 every 5 s, later blocks every 20 s: only the first pace is in the window
  const bundles = retimed(chain.bundles.length, (n) => (n <= 50 ? n * 5 : 250 + (n - 50) * 20));
  const head = headOf(bundles);
  t.ok(head - 100 <= 51, 'the fixture is short enough that the window is blocks 1..50');
  const r = await countdown(t, bundles, head + 7);
  t.same(r.instance, {
    current_block_number: String(head),
    countdown_block_number: String(head + 7),
    remaining_blocks_count: '7',
    estimated_time_in_seconds: String(7 * 5) + '.0',
  });
  t.same(r.multichain, { current_block: head, countdown_block: head + 7, remaining_blocks: 7, estimated_time_in_sec: 35 }, 'the Pro API body');
});

t.test('a short chain: its newest 100 blocks (Blockscout would say 0)', async (t) => {
  // block n at n² s: gaps 3, 5, …, 19 s between blocks 1..10 → mean 11 s; genesis left out
  const bundles = retimed(11, (n) => (n === 0 ? -1_000_000 : n * n));
  const r = await countdown(t, bundles, 13);
  t.equal(r.instance.estimated_time_in_seconds, '33.0', '3 blocks × 11 s');
  t.equal(r.multichain.estimated_time_in_sec, 33);
});

t.test('ordered by timestamp; pairs whose numbers do not increase are skipped', async (t) => {
  // by time: 4 (30), 2 (10), 3 (5), 1 (0) → pairs (4,2) 20 s over 2 blocks, (2,3) skipped, (3,1) 5 s over 2
  const times: Record<number, number> = { 0: -50, 1: 0, 2: 10, 3: 5, 4: 30 };
  const bundles = retimed(5, (n) => times[n] ?? 0);
  const mean = (20 / 2 + 5 / 2) / 2; // 6.25 s
  const one = await countdown(t, bundles, 5);
  t.equal(one.instance.estimated_time_in_seconds, '6.3', `${mean} s rounds half up to one decimal`);
  t.equal(one.multichain.estimated_time_in_sec, 6.3);
  const two = await countdown(t, bundles, 6);
  t.equal(two.instance.estimated_time_in_seconds, '12.5');
  const far = await countdown(t, bundles, Number.MAX_SAFE_INTEGER);
  const remaining = BigInt(Number.MAX_SAFE_INTEGER) - 4n;
  // remaining × 6.25 s = remaining × 25 / 4; tenths rounded half up
  const tenths = (remaining * 250n + 2n) / 4n;
  t.equal(far.instance.remaining_blocks_count, remaining.toString(), 'exact remaining count');
  t.equal(far.instance.estimated_time_in_seconds, `${tenths / 10n}.${tenths % 10n}`, 'exact seconds beyond 2^53');
});

t.test('one block above genesis or none: an average of 0', async (t) => {
  const onlyGenesis = await countdown(t, retimed(1, () => 0), 10);
  t.same(onlyGenesis.instance, { current_block_number: '0', countdown_block_number: '10', remaining_blocks_count: '10', estimated_time_in_seconds: '0.0' });
  const one = await countdown(t, retimed(2, (n) => n * 12), 3);
  t.equal(one.instance.estimated_time_in_seconds, '0.0', 'a single block has no spacing');
});

t.test("Blockscout's errors", async (t) => {
  const bundles = retimed(5, (n) => n * 12);
  for (const target of [4, 3, 0]) {
    const r = await countdown(t, bundles, target);
    t.same({ status: r.status, body: r.instance }, { status: 404, body: { message: 'Block number already mined' } }, `block ${target} (head 4)`);
  }
  const empty = await countdown(t, [], 1);
  t.same({ status: empty.status, body: empty.instance }, { status: 422, body: { message: 'Chain is indexing now, try again later' } }, 'an empty store');
  for (const [bad, detail] of [
    ['abc', 'Invalid integer. Got: string'],
    ['1.5', 'Invalid integer. Got: string'],
    ['0x10', 'Invalid integer. Got: string'],
    ['-1', '-1 is smaller than inclusive minimum 0'],
    ['9007199254740992', '9007199254740992 is larger than inclusive maximum 9007199254740991'],
  ] as const) {
    const r = await countdown(t, bundles, bad);
    t.same(
      { status: r.status, body: r.instance },
      { status: 422, body: { errors: [{ title: 'Invalid value', source: { pointer: '/block_number_param' }, detail }] } },
      `/blocks/${bad}/countdown`,
    );
  }
});

t.test('/config/backend-version names this package and its version', async (t) => {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };
  const r = await (await explorerOver([])).handle({ path: '/api/v2/config/backend-version' });
  t.same(r.body, { backend_version: `${pkg.name} ${pkg.version}` });
});
