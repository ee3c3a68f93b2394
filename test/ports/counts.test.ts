/** countTokenTransfers: per token and per id, a batch once, consensus only (over every store). */
import type { TokenTransferCountFilter } from '../../lib/ports.ts';
import { ZERO, A, B, C, T20, T721, T1155, block, tx, transfer, bundle } from './records.ts';
import { storeTest } from './stores.ts';

storeTest('countTokenTransfers: a token, one id, batches once, after a rollback', async (t, s) => {
  const b1 = block(1);
  const b2 = block(2);
  const x10 = tx(b1, 0);
  const x11 = tx(b1, 1);
  const x20 = tx(b2, 0);
  await s.writeBlocks([
    bundle(b1, {
      transactions: [x10, x11],
      tokenTransfers: [
        transfer(x10, 0, T20, 'ERC-20', A, B, [], 5n),
        transfer(x10, 1, T721, 'ERC-721', ZERO, A, [1n]),
        transfer(x11, 2, T1155, 'ERC-1155', A, B, [1n, 2n, 3n]),
        transfer(x11, 3, T721, 'ERC-721', ZERO, A, [2n]),
      ],
    }),
    bundle(b2, {
      transactions: [x20],
      tokenTransfers: [transfer(x20, 4, T721, 'ERC-721', A, B, [1n]), transfer(x20, 5, T1155, 'ERC-1155', B, C, [2n])],
    }),
  ]);
  const count = (f: TokenTransferCountFilter) => s.countTokenTransfers(f);
  /** the count the list gives, walking every page */
  const listed = async (f: TokenTransferCountFilter) => (await s.listTokenTransfers(f, { after: null, limit: 100, order: 'desc' })).length;
  const filters: TokenTransferCountFilter[] = [
    { tokenAddress: T20 },
    { tokenAddress: T721 },
    { tokenAddress: T1155 },
    { tokenAddress: T721, tokenId: 1n },
    { tokenAddress: T721, tokenId: 2n },
    { tokenAddress: T1155, tokenId: 2n },
    { tokenAddress: T1155, tokenId: 3n },
    { tokenAddress: T1155, tokenId: 9n },
    { tokenAddress: C },
  ];
  for (const f of filters) t.equal(await count(f), await listed(f), `count = list length: ${JSON.stringify(f, (_, v) => (typeof v === 'bigint' ? v.toString() : v))}`);
  t.equal(await count({ tokenAddress: T721 }), 3, 'three ERC-721 transfers');
  t.equal(await count({ tokenAddress: T1155 }), 2, 'a batch counts once for the token');
  t.equal(await count({ tokenAddress: T1155, tokenId: 2n }), 2, 'the batch and the single transfer carry id 2');
  t.equal(await count({ tokenAddress: T1155, tokenId: 3n }), 1, 'the batch carries id 3');
  t.equal(await count({ tokenAddress: C }), 0, 'no transfers: 0');
  await s.rollbackAbove(1);
  t.equal(await count({ tokenAddress: T721, tokenId: 1n }), 1, 'rolled-back transfers are not counted');
  t.equal(await count({ tokenAddress: T1155 }), 1);
});
