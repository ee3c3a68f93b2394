/** The pure parts of the search: classification of `q`, slot sharing of /search/quick, name matching helpers. */
import t from 'tap';
import { classify, redirectTarget } from '../../lib/search/classify.ts';
import { shareSlots } from '../../lib/search/search.ts';
import { asciiLower, compareCodePoints, prefixBound } from '../../lib/domain/text.ts';

const A = `0x${'aB'.repeat(20)}`;
const H = `0x${'Cd'.repeat(32)}`;

t.test('classify: trimmed, first matching row wins', async (t) => {
  t.same(classify(undefined), { kind: 'none' });
  t.same(classify('  -- ! '), { kind: 'none' }, 'no letter or digit');
  t.same(classify(` ${A} `), { kind: 'address', address: A.toLowerCase() });
  t.same(classify(H), { kind: 'hash', hash: H.toLowerCase() });
  t.same(classify('12'), { kind: 'number', number: 12, text: null }, 'a short number: blocks only');
  t.same(classify('123'), { kind: 'number', number: 123, text: '123' }, 'three digits: blocks and text');
  t.same(classify('18446744073709551616'), { kind: 'number', number: null, text: '18446744073709551616' }, 'beyond block numbers');
  t.same(classify('ab'), { kind: 'none' }, 'short text');
  t.same(classify('usd coin'), { kind: 'text', text: 'usd coin' });
  t.same(classify(`0x${'ab'.repeat(19)}`), { kind: 'text', text: `0x${'ab'.repeat(19)}` }, 'a short hex is text');
});

t.test('check-redirect targets: hashes with or without 0x', async (t) => {
  t.same(redirectTarget(A.slice(2)), { kind: 'address', address: A.toLowerCase() });
  t.same(redirectTarget(H.slice(2)), { kind: 'hash', hash: H.toLowerCase() });
  t.same(redirectTarget(' 42 '), { kind: 'number', number: 42 });
  t.same(redirectTarget('1'.repeat(40)), { kind: 'address', address: `0x${'1'.repeat(40)}` }, '40 digits are an address first');
  t.same(redirectTarget('name.eth'), { kind: 'none' });
});

t.test("quick search slots: Blockscout's example and edges", async (t) => {
  // 1 address, 1 tx, 2 blocks, 50 tokens, 50 contracts, 50 labels → 1 + 1 + 2 + 16 + 15 + 15
  t.same(shareSlots([1, 1, 2, 50, 50, 50], 50), [1, 1, 2, 16, 15, 15]);
  t.same(shareSlots([0, 50, 50], 50), [0, 25, 25]);
  t.same(shareSlots([3, 4], 50), [3, 4], 'everything fits');
  t.same(shareSlots([10, 30, 30], 50), [10, 20, 20]);
  t.same(shareSlots([], 50), []);
});

t.test('name matching: ASCII lower-casing, code point order, prefix bounds', async (t) => {
  t.equal(asciiLower('ÄBC-Éz'), 'Äbc-Éz', 'only ASCII letters fold');
  t.ok(compareCodePoints('\uffff', '\u{10000}') < 0, 'code points, not UTF-16 units');
  t.ok(compareCodePoints('ab', 'abc') < 0);
  t.equal(compareCodePoints('abc', 'abc'), 0);
  t.equal(prefixBound('ab'), 'ac');
  t.equal(prefixBound('a\u{10ffff}'), 'b', 'the last code point carries');
  t.equal(prefixBound('\u{10ffff}'), null, 'no bound');
  t.equal(prefixBound('a\ud7ff'), 'a\ue000', 'skips the surrogates');
});
