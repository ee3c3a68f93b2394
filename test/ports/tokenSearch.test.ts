/**
 * listTokens (holders count DESC, name ASC with null names last, address ASC; prefix on name or
 * symbol; types) and listAddresses (named addresses by lower-cased name prefix), over every store:
 * ties, null names, case, non-ASCII, both orders, rollback.
 */
import type { Address, AddressRecord, TokenRecord, TokenType } from '../../lib/domain/records.ts';
import type { AddressListFilter, TokenListFilter } from '../../lib/ports.ts';
import { addr, A, B, C, block, bal, bundle, walksBothWays, page, token, address } from './records.ts';
import { storeTest } from './stores.ts';

const named = (a: Address, type: TokenType, name: string | null, symbol: string | null): TokenRecord => ({ ...token(a, type), name, symbol });

storeTest('tokens: holders DESC, name ASC (null last), address ASC; prefix, types, rollback', async (t, s) => {
  const b1 = block(1);
  const b2 = block(2);
  const [T1, T2, T3, T4, T5, T6, T7] = [0x101, 0x102, 0x103, 0x104, 0x105, 0x106, 0x107].map(addr);
  await s.writeBlocks([
    bundle(b1, {
      tokens: [
        named(T1, 'ERC-20', 'Alpha', 'ALP'),
        named(T2, 'ERC-20', 'alpha two', 'A2'),
        named(T3, 'ERC-721', null, 'NUL'),
        named(T4, 'ERC-721', 'Beta', null),
        named(T5, 'ERC-1155', 'Beta', 'BET'),
        named(T6, 'ERC-20', 'Äpfel', 'apf'),
        named(T7, 'ERC-20', null, null),
      ],
      tokenBalances: [
        bal(b1, A, T1, 'ERC-20', 5n),
        bal(b1, B, T1, 'ERC-20', 5n),
        bal(b1, A, T2, 'ERC-20', 1n),
        bal(b1, B, T2, 'ERC-20', 1n),
        bal(b1, A, T4, 'ERC-721', 1n),
        bal(b1, A, T5, 'ERC-1155', 1n, 7n),
        bal(b1, C, T3, 'ERC-721', 1n),
      ],
    }),
    bundle(b2, { tokenBalances: [bal(b2, C, T1, 'ERC-20', 1n), bal(b2, B, T2, 'ERC-20', 0n)] }),
  ]);
  const key = (r: TokenRecord) => `${r.holdersCount}:${r.name ?? '-'}:${r.address}`;
  const cursorOf = (r: TokenRecord) => ({ holdersCount: r.holdersCount, name: r.name, address: r.address });
  const walks = (label: string, f: TokenListFilter, expected: string[]) => walksBothWays(t, label, (p) => s.listTokens(f, p), cursorOf, key, expected);
  const all = [`3:Alpha:${T1}`, `1:Beta:${T4}`, `1:Beta:${T5}`, `1:alpha two:${T2}`, `1:-:${T3}`, `0:Äpfel:${T6}`, `0:-:${T7}`];
  await walks('every token', {}, all);
  await walks('empty filter values', { prefix: '', types: [] }, all);
  await walks('prefix on name or symbol, any case', { prefix: 'AL' }, [`3:Alpha:${T1}`, `1:alpha two:${T2}`]);
  await walks('prefix on a symbol only', { prefix: 'nu' }, [`1:-:${T3}`]);
  await walks('prefix on both: listed once', { prefix: 'bet' }, [`1:Beta:${T4}`, `1:Beta:${T5}`]);
  await walks('prefix: the whole name', { prefix: 'alpha two' }, [`1:alpha two:${T2}`]);
  await walks('non-ASCII letters are not case-folded', { prefix: 'äp' }, []);
  await walks('non-ASCII prefix', { prefix: 'Äp' }, [`0:Äpfel:${T6}`]);
  await walks('ASCII folding of the symbol', { prefix: 'APF' }, [`0:Äpfel:${T6}`]);
  await walks('types', { types: ['ERC-721', 'ERC-1155'] }, [`1:Beta:${T4}`, `1:Beta:${T5}`, `1:-:${T3}`]);
  await walks('types and prefix', { types: ['ERC-20'], prefix: 'a' }, [`3:Alpha:${T1}`, `1:alpha two:${T2}`, `0:Äpfel:${T6}`]);
  await walks('no match', { prefix: 'zzz' }, []);
  t.same(
    (await s.listTokens({}, page({ holdersCount: 1n, name: 'Beta', address: T4 }, 2))).map(key),
    [`1:Beta:${T5}`, `1:alpha two:${T2}`],
    'a cursor inside a tie of holders and name resumes at the next address',
  );
  t.same((await s.listTokens({}, page({ holdersCount: 1n, name: null, address: T3 }, 5))).map(key), [`0:Äpfel:${T6}`, `0:-:${T7}`], 'a cursor on a null name');
  t.same((await s.listTokens({}, page(null, 0))).length, 0, 'limit 0');
  await s.rollbackAbove(1);
  await walks('after rollback', {}, [`2:Alpha:${T1}`, `2:alpha two:${T2}`, `1:Beta:${T4}`, `1:Beta:${T5}`, `1:-:${T3}`, `0:Äpfel:${T6}`, `0:-:${T7}`]);
  await s.rollbackAbove(0);
  await walks('after rolling back the tokens', {}, []);
});

storeTest('addresses by name: lower-cased name prefix, (name, hash) order', async (t, s) => {
  const b1 = block(1);
  const b2 = block(2);
  const [X1, X2, X3, X4, X5] = [0x201, 0x202, 0x203, 0x204, 0x205].map(addr);
  await s.writeBlocks([
    bundle(b1, {
      addresses: [
        address(b1, X1, 'Router'),
        { ...address(b1, X2, 'router'), isContract: true },
        { ...address(b1, X3, 'RouterV2'), isContract: true },
        address(b1, X4, null),
        address(b1, X5, 'Multicall'),
      ],
    }),
    bundle(b2, { addresses: [address(b2, X5, 'Routed')] }),
  ]);
  const key = (r: AddressRecord) => `${r.name ?? '-'}:${r.hash}`;
  const cursorOf = (r: AddressRecord) => ({ name: r.name ?? '', hash: r.hash });
  const walks = (label: string, f: AddressListFilter, expected: string[]) => walksBothWays(t, label, (p) => s.listAddresses(f, p), cursorOf, key, expected);
  await walks('prefix', { namePrefix: 'rout' }, [`Routed:${X5}`, `Router:${X1}`, `router:${X2}`, `RouterV2:${X3}`]);
  await walks('prefix, other case', { namePrefix: 'ROUTER' }, [`Router:${X1}`, `router:${X2}`, `RouterV2:${X3}`]);
  await walks('every named address', { namePrefix: '' }, [`Routed:${X5}`, `Router:${X1}`, `router:${X2}`, `RouterV2:${X3}`]);
  await walks('no match', { namePrefix: 'multi' }, []);
  await walks('contracts only', { namePrefix: 'r', isContract: true }, [`router:${X2}`, `RouterV2:${X3}`]);
  await walks('accounts only', { namePrefix: 'r', isContract: false }, [`Routed:${X5}`, `Router:${X1}`]);
  await s.rollbackAbove(1);
  await walks('after rollback', { namePrefix: 'm' }, [`Multicall:${X5}`]);
});
