/** listTokenTransfers: order, ties, inclusive cursors, filters. (the port suite, over every store). */
import type { TokenTransferRecord } from '../../lib/domain/records.ts';
import type { TokenTransferCursor, DataSource } from '../../lib/ports.ts';
import { ZERO, A, B, C, T20, T721, T1155, block, tx, transfer, token, bundle, walk } from './records.ts';
import { storeTest } from './stores.ts';

storeTest('token transfers: order, ties in one block, inclusive cursor, filters', async (t, s) => {
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
      tokenTransfers: [transfer(x20, 4, T721, 'ERC-721', A, B, [1n]), transfer(x20, 7, T20, 'ERC-20', B, C, [], 1n)],
    }),
  ]);
  const key = (r: TokenTransferRecord) => `${r.blockNumber}.${r.logIndex}`;
  const list = async (f: Parameters<DataSource['listTokenTransfers']>[0], after: { blockNumber: number; logIndex: number; inclusive?: boolean } | null = null, limit = 100) =>
    (await s.listTokenTransfers(f, { after, limit })).map(key);

  t.same(await list({}), ['2.7', '2.4', '1.3', '1.2', '1.1', '1.0']);
  t.same(await list({}, { blockNumber: 1, logIndex: 3 }), ['1.2', '1.1', '1.0']);
  t.same(await list({}, { blockNumber: 1, logIndex: 3, inclusive: true }, 2), ['1.3', '1.2']);
  t.same(await list({}, { blockNumber: 2, logIndex: 0 }), ['1.3', '1.2', '1.1', '1.0']);
  const walked = await walk<TokenTransferRecord, TokenTransferCursor>((after, limit) => s.listTokenTransfers({}, { after, limit }), (r) => ({ blockNumber: r.blockNumber, logIndex: r.logIndex }), 2);
  t.same(walked.map(key), ['2.7', '2.4', '1.3', '1.2', '1.1', '1.0']);
  t.same(await list({ tokenAddress: T721 }), ['2.4', '1.3', '1.1']);
  t.same(await list({ tokenAddress: T721, tokenId: 1n }), ['2.4', '1.1']);
  t.same(await list({ tokenAddress: T721, tokenId: 1n }, { blockNumber: 2, logIndex: 4 }), ['1.1']);
  t.same(await list({ tokenAddress: T1155, tokenId: 2n }), ['1.2'], 'batch contains the id');
  t.same(await list({ types: ['ERC-20', 'ERC-1155'] }), ['2.7', '1.2', '1.0']);
  t.same(await list({ types: [] }), []);
  t.same(await list({ transactionHash: x11.hash }), ['1.2', '1.3'], 'logIndex ASC within a transaction');
  t.same(await list({ transactionHash: x11.hash }, { blockNumber: 1, logIndex: 2 }), ['1.3']);
  t.same(await list({ transactionHash: x11.hash }, { blockNumber: 1, logIndex: 2, inclusive: true }), ['1.2', '1.3']);
  t.same(await list({ transactionHash: x11.hash, types: ['ERC-721'] }), ['1.3']);
});
