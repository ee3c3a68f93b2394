/** listTokenHolders: a token's or one id's current holders, ties, null ids, rollback (over every store). */
import type { CurrentTokenBalance, TokenHolderFilter } from '../../lib/ports.ts';
import { addr, ZERO, A, B, C, T20, T721, T1155, block, bal, bundle, walksBothWays, page } from './records.ts';
import { storeTest } from './stores.ts';

storeTest('token holders: value DESC, holder DESC, id DESC; no zero address, no empty balances', async (t, s) => {
  const b1 = block(1);
  const b2 = block(2);
  const D = addr(0xd);
  const T7984 = addr(0x7984);
  await s.writeBlocks([
    bundle(b1, {
      tokenBalances: [
        bal(b1, A, T20, 'ERC-20', 100n),
        bal(b1, B, T20, 'ERC-20', 100n),
        bal(b1, C, T20, 'ERC-20', 7n),
        bal(b1, D, T20, 'ERC-20', 3n),
        bal(b1, ZERO, T20, 'ERC-20', 1000n),
        bal(b1, A, T721, 'ERC-721', 2n),
        bal(b1, B, T721, 'ERC-721', 1n),
        bal(b1, A, T1155, 'ERC-1155', 5n, 1n),
        bal(b1, A, T1155, 'ERC-1155', 5n, 2n),
        bal(b1, B, T1155, 'ERC-1155', 5n, 1n),
        bal(b1, C, T1155, 'ERC-1155', 9n, 2n),
        bal(b1, D, T1155, 'ERC-1155', 0n, 1n),
        bal(b1, A, T7984, 'ERC-7984', 0n),
      ],
    }),
    bundle(b2, { tokenBalances: [bal(b2, D, T20, 'ERC-20', 0n), bal(b2, C, T20, 'ERC-20', 200n)] }),
  ]);
  const key = (b: CurrentTokenBalance) => `${b.value}:${b.holder}:${b.tokenId ?? '-'}`;
  const cursorOf = (b: CurrentTokenBalance) => ({ value: b.value, holder: b.holder, tokenId: b.tokenId });
  const walks = (label: string, f: TokenHolderFilter, expected: string[]) =>
    walksBothWays(t, label, (p) => s.listTokenHolders(f, p), cursorOf, key, expected);
  await walks('ERC-20', { tokenAddress: T20 }, [`200:${C}:-`, `100:${B}:-`, `100:${A}:-`]);
  await walks('ERC-721 per contract', { tokenAddress: T721 }, [`2:${A}:-`, `1:${B}:-`]);
  await walks('ERC-721 by id: none (balances are per contract)', { tokenAddress: T721, tokenId: 1n }, []);
  await walks('ERC-1155 one row per id', { tokenAddress: T1155 }, [`9:${C}:2`, `5:${B}:1`, `5:${A}:2`, `5:${A}:1`]);
  await walks('ERC-1155 id 1', { tokenAddress: T1155, tokenId: 1n }, [`5:${B}:1`, `5:${A}:1`]);
  await walks('ERC-1155 id 2', { tokenAddress: T1155, tokenId: 2n }, [`9:${C}:2`, `5:${A}:2`]);
  await walks('ERC-7984: any value', { tokenAddress: T7984 }, [`0:${A}:-`]);
  await walks('unknown token', { tokenAddress: addr(0x5555) }, []);
  t.same(
    (await s.listTokenHolders({ tokenAddress: T1155 }, page({ value: 5n, holder: A, tokenId: 2n }))).map(key),
    [`5:${A}:1`],
    'a cursor inside a tie of value and holder resumes at the next id',
  );
  t.same((await s.listTokenHolders({ tokenAddress: T20 }, page(null, 0))).length, 0, 'limit 0');
  await s.rollbackAbove(1);
  await walks('after rollback', { tokenAddress: T20 }, [`100:${B}:-`, `100:${A}:-`, `7:${C}:-`, `3:${D}:-`]);
});
