/** The pending pool's diff (pure): what is new, replaced (same sender and nonce) or gone. */
import t from 'tap';
import type { Address, Hash } from '../../../lib/domain/records.ts';
import { diffPool } from '../../../lib/indexer/poolDiff.ts';
import { hash } from '../../../lib/domain/hex.ts';

const A = '0x00000000000000000000000000000000000000aa' as Address;
const B = '0x00000000000000000000000000000000000000bb' as Address;
const h = (n: number): Hash => hash(`0x${n.toString(16).padStart(64, '0')}`);
const e = (n: number, from: Address, nonce: number) => ({ hash: h(n), from, nonce });

t.test('an empty store: the whole pool is new', async (t) => {
  const pool = [e(1, A, 0), e(2, A, 1), e(3, B, 0)];
  t.same(diffPool([], pool, false), { added: pool, replaced: [], gone: [] });
});

t.test('nothing changed: nothing to do', async (t) => {
  const pool = [e(1, A, 0), e(2, B, 0)];
  t.same(diffPool(pool, pool, false), { added: [], replaced: [], gone: [] });
});

t.test('a replacement: the new one added, the old one replaced', async (t) => {
  const stored = [e(1, A, 0), e(2, A, 1)];
  const pool = [e(1, A, 0), e(9, A, 1)];
  t.same(diffPool(stored, pool, false), { added: [e(9, A, 1)], replaced: [h(2)], gone: [] });
});

t.test('gone from the pool (evicted, or mined under another hash)', async (t) => {
  const stored = [e(1, A, 0), e(2, B, 0)];
  t.same(diffPool(stored, [e(2, B, 0)], false), { added: [], replaced: [], gone: [h(1)] });
  t.same(diffPool(stored, [], false), { added: [], replaced: [], gone: [h(1), h(2)] }, 'an empty pool: all gone');
});

t.test('a truncated read: nothing is gone, a replacement still is one', async (t) => {
  const stored = [e(1, A, 0), e(2, B, 0), e(3, B, 1)];
  const pool = [e(7, B, 1)];
  t.same(diffPool(stored, pool, true), { added: [e(7, B, 1)], replaced: [h(3)], gone: [] });
});

t.test('hashes and senders compare case-insensitively; duplicates count once', async (t) => {
  const upper = { hash: h(0xab).toUpperCase().replace('0X', '0x') as Hash, from: A.toUpperCase().replace('0X', '0x') as Address, nonce: 0 };
  t.same(diffPool([e(0xab, A, 0)], [upper, upper], false), { added: [], replaced: [], gone: [] }, 'same hash in another case: not new');
  const stored = [e(1, A, 3), e(1, A, 3)];
  t.same(diffPool(stored, [{ ...e(2, A, 3), from: upper.from }], false), { added: [{ ...e(2, A, 3), from: upper.from }], replaced: [h(1)], gone: [] }, 'the sender in another case: the same slot');
  t.same(diffPool([], [e(5, A, 0), e(5, A, 0)], false).added, [e(5, A, 0)], 'a hash twice in the pool: added once');
});

t.test('pool entries keep their own type (the diff hands them back as given)', async (t) => {
  const rich = { ...e(4, B, 2), value: 10n };
  const { added } = diffPool([], [rich], false);
  t.equal(added[0], rich, 'the same object');
});
