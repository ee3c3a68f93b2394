/** listTokenBalances and listNftCollections: current values, orders, cursors, grouping. (the port suite, over every store). */
import type { Address } from '../../lib/domain/records.ts';
import type { CurrentTokenBalance, NftCollectionCursor, NftCollectionRecord, Page, TokenBalanceCursor, TokenBalanceFilter } from '../../lib/ports.ts';
import { addr, ZERO, A, B, T20, T721, T1155, T404, block, tx, transfer, token, bal, bundle, walk, walksBothWays, page } from './records.ts';
import { storeTest } from './stores.ts';

storeTest('token balances: current values, order with ties and null ids, cursor', async (t, s) => {
  const b1 = block(1);
  const b2 = block(2);
  const T7984 = addr(0x7984);
  const TOLD = addr(0x01d);
  await s.writeBlocks([
    bundle(b1, {
      tokenBalances: [
        bal(b1, A, T20, 'ERC-20', 100n),
        bal(b1, A, TOLD, 'ERC-20', 50n),
        bal(b1, A, T1155, 'ERC-1155', 5n, 1n),
        bal(b1, A, T1155, 'ERC-1155', 5n, 2n),
        bal(b1, A, T404, 'ERC-404', 5n),
        bal(b1, A, T404, 'ERC-404', 5n, 9n),
        bal(b1, A, T721, 'ERC-721', 5n),
        bal(b1, A, T7984, 'ERC-7984', 0n),
        bal(b1, B, T20, 'ERC-20', 1n),
      ],
    }),
    bundle(b2, { tokenBalances: [bal(b2, A, TOLD, 'ERC-20', 0n), bal(b2, A, T20, 'ERC-20', 5n)] }),
  ]);
  const key = (b: { value: bigint; tokenAddress: Address; tokenId: bigint | null }) => `${b.value}:${b.tokenAddress}:${b.tokenId ?? '-'}`;
  // value DESC, tokenAddress DESC, tokenId DESC with null lowest
  const expected = [
    `5:${T20}:-`,
    `5:${T1155}:2`,
    `5:${T1155}:1`,
    `5:${T721}:-`,
    `5:${T404}:9`,
    `5:${T404}:-`,
    `0:${T7984}:-`,
  ];
  t.same((await s.listTokenBalances({ holder: A }, page())).map(key), expected);
  for (const limit of [1, 2, 4]) {
    const walked = await walk<CurrentTokenBalance, TokenBalanceCursor>(
      (after, l) => s.listTokenBalances({ holder: A }, { after, limit: l, order: 'desc' }),
      (b) => ({ value: b.value, tokenAddress: b.tokenAddress, tokenId: b.tokenId }),
      limit,
    );
    t.same(walked.map(key), expected, `walk with limit ${limit}`);
  }
  await walksBothWays(
    t,
    'balances',
    (p) => s.listTokenBalances({ holder: A }, p),
    (b: CurrentTokenBalance): TokenBalanceCursor => ({ value: b.value, tokenAddress: b.tokenAddress, tokenId: b.tokenId }),
    key,
    expected,
    [1, 3],
  );
  t.same(
    (await s.listTokenBalances({ holder: A }, page({ value: 5n, tokenAddress: T404, tokenId: 9n }, 2, 'asc'))).map(key),
    [`5:${T721}:-`, `5:${T1155}:1`],
    "'asc' from a cursor",
  );
  t.same(
    (await s.listTokenBalances({ holder: A, types: ['ERC-404', 'ERC-20'] }, page(null, 100, 'asc'))).map(key),
    [`5:${T404}:-`, `5:${T404}:9`, `5:${T20}:-`],
  );
  t.same(
    (await s.listTokenBalances({ holder: A }, page({ value: 5n, tokenAddress: T404, tokenId: 9n }))).map(key),
    [`5:${T404}:-`, `0:${T7984}:-`],
  );
  t.same((await s.listTokenBalances({ holder: A, types: ['ERC-404', 'ERC-20'] }, page())).map(key), [`5:${T20}:-`, `5:${T404}:9`, `5:${T404}:-`]);
  t.equal((await s.getToken(T20)), null, 'no token record written');
});

storeTest('token holdings: the balances of listTokenBalances, each with its token record as getTokens reads it', async (t, s) => {
  const b1 = block(1);
  const big = 2n ** 255n + 7n; // beyond a JSON number's digits
  await s.writeBlocks([
    bundle(b1, {
      tokens: [{ ...token(T20, 'ERC-20', 'Dollar "quoted", ∆ \\ 😀'), totalSupply: big, iconUrl: 'https://x/i.png', exchangeRate: '1.5' }, token(T1155, 'ERC-1155')],
      tokenBalances: [
        bal(b1, A, T20, 'ERC-20', big),
        bal(b1, A, T1155, 'ERC-1155', 5n, 2n ** 200n),
        bal(b1, A, T1155, 'ERC-1155', 5n, 1n),
        bal(b1, A, T721, 'ERC-721', 5n), // no token record
        bal(b1, B, T20, 'ERC-20', 1n),
      ],
    }),
  ]);
  const records = new Map((await s.getTokens([T20, T1155, T721])).map((r) => [r.address, r]));
  t.equal(records.size, 2);
  const cases: [TokenBalanceFilter, Page<TokenBalanceCursor>][] = [
    [{ holder: A }, page()],
    [{ holder: A }, page(null, 2, 'asc')],
    [{ holder: A, types: ['ERC-1155', 'ERC-721'] }, page()],
    [{ holder: A }, page({ value: 5n, tokenAddress: T1155, tokenId: 2n ** 200n }, 10)],
  ];
  for (const [filter, p] of cases) {
    const balances = await s.listTokenBalances(filter, p);
    const holdings = await s.listTokenHoldings(filter, p);
    t.ok(balances.length > 0);
    t.same(
      holdings,
      balances.map((b) => ({ ...b, token: records.get(b.tokenAddress) ?? null })),
      `${JSON.stringify(filter)} ${p.order} ${p.limit}`,
    );
  }
});

storeTest('NFT collections: grouping, order, cursor, holdings', async (t, s) => {
  const b1 = block(1);
  const x = tx(b1, 0);
  const T721b = addr(0x7210);
  const T1155b = addr(0x11550);
  const mints = Array.from({ length: 11 }, (_, i) => transfer(x, i, T721, 'ERC-721', ZERO, A, [BigInt(i + 1)]));
  await s.writeBlocks([
    bundle(b1, {
      transactions: [x],
      tokenTransfers: [...mints, transfer(x, 20, T721b, 'ERC-721', ZERO, A, [5n]), transfer(x, 21, T721b, 'ERC-721', A, B, [5n])],
      tokenBalances: [
        bal(b1, A, T721, 'ERC-721', 11n),
        bal(b1, A, T721b, 'ERC-721', 0n), // gave it away: no collection
        bal(b1, A, T1155b, 'ERC-1155', 2n, 1n),
        bal(b1, A, T1155, 'ERC-1155', 3n, 7n),
        bal(b1, A, T1155, 'ERC-1155', 1n, 9n),
        bal(b1, A, T1155, 'ERC-1155', 0n, 10n),
        bal(b1, A, T404, 'ERC-404', 1000n), // fungible leg: not counted
        bal(b1, A, T404, 'ERC-404', 1n, 4n),
        bal(b1, A, T404, 'ERC-404', 1n, 6n),
        bal(b1, A, T20, 'ERC-20', 10n),
      ],
    }),
  ]);
  const collection = (c: NftCollectionRecord) => `${c.tokenType}:${c.tokenAddress}:${c.amount}`;
  const types = ['ERC-404', 'ERC-1155', 'ERC-721'] as const;
  const all = await s.listNftCollections({ holder: A, types, holdings: 9 }, page(null, 100, 'asc'));
  const expected = [`ERC-721:${T721}:11`, `ERC-1155:${T1155}:2`, `ERC-1155:${T1155b}:1`, `ERC-404:${T404}:2`];
  t.same(all.map(collection), expected, "'asc': type rank, then token address");
  await walksBothWays(
    t,
    'collections',
    (p) => s.listNftCollections({ holder: A, types, holdings: 9 }, p),
    (c: NftCollectionRecord): NftCollectionCursor => ({ tokenType: c.tokenType, tokenAddress: c.tokenAddress }),
    collection,
    [...expected].reverse(),
  );
  t.same(all[0].holdings.map((h) => `${h.tokenId}:${h.value}`), ['11:1', '10:1', '9:1', '8:1', '7:1', '6:1', '5:1', '4:1', '3:1'], 'up to 9, tokenId DESC');
  t.same(all[1].holdings.map((h) => `${h.tokenId}:${h.value}`), ['9:1', '7:3']);
  t.same(all[3].holdings.map((h) => `${h.tokenId}:${h.value}`), ['6:1', '4:1']);
  const two = await s.listNftCollections({ holder: A, types, holdings: 2 }, page(null, 100, 'desc'));
  t.same(two.map((c) => c.holdings.map((h) => String(h.tokenId))), [['6', '4'], ['1'], ['9', '7'], ['11', '10']], 'the caller sets how many holdings');
  t.same((await s.listNftCollections({ holder: A, types, holdings: 0 }, page())).flatMap((c) => c.holdings), [], 'none asked, none given');
  t.same(
    (await s.listNftCollections({ holder: A, types: ['ERC-721', 'ERC-1155', 'ERC-404'], holdings: 9 }, page({ tokenType: 'ERC-1155', tokenAddress: T1155 }, 1, 'asc'))).map((c) => c.tokenAddress),
    [T1155b],
  );
  t.same(
    (await s.listNftCollections({ holder: A, types: ['ERC-721', 'ERC-1155', 'ERC-404'], holdings: 9 }, page({ tokenType: 'ERC-1155', tokenAddress: T1155b }, 100, 'desc'))).map((c) => c.tokenAddress),
    [T1155, T721],
  );
  t.same(
    (await s.listNftCollections({ holder: A, types: ['ERC-1155', 'ERC-404'], holdings: 9 }, page({ tokenType: 'ERC-721', tokenAddress: T721 }, 100, 'asc'))).map((c) => c.tokenAddress),
    [T1155, T1155b, T404],
  );
  t.same((await s.listNftCollections({ holder: A, types: ['ERC-404'], holdings: 9 }, page())).map((c) => c.tokenAddress), [T404]);
  t.same(
    (await s.listNftCollections({ holder: B, types: ['ERC-721'], holdings: 9 }, page())),
    [],
    'ERC-721 collections come from balances; B has no balance row',
  );
});
