/** listTokenTransfers: order, ties, inclusive cursors, filters. (the port suite, over every store). */
import type { Hex, TokenTransferRecord } from '../../lib/domain/records.ts';
import { hex } from '../../lib/domain/hex.ts';
import type { DataSource, Order, TokenTransferCursor } from '../../lib/ports.ts';
import { ZERO, A, B, C, T20, T721, T1155, block, tx, transfer, token, bundle, walksBothWays } from './records.ts';
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
  const cursorOf = (r: TokenTransferRecord) => ({ blockNumber: r.blockNumber, logIndex: r.logIndex });
  type Filter = Parameters<DataSource['listTokenTransfers']>[0];
  const list = async (f: Filter, after: TokenTransferCursor | null = null, limit = 100, order: Order = 'desc') =>
    (await s.listTokenTransfers(f, { after, limit, order })).map(key);
  const walks = (label: string, f: Filter, expected: readonly string[]) =>
    walksBothWays(t, label, (p) => s.listTokenTransfers(f, p), cursorOf, key, expected);

  await walks('all', {}, ['2.7', '2.4', '1.3', '1.2', '1.1', '1.0']);
  t.same(await list({}, { blockNumber: 1, logIndex: 3 }), ['1.2', '1.1', '1.0']);
  t.same(await list({}, { blockNumber: 1, logIndex: 3 }, 100, 'asc'), ['2.4', '2.7']);
  t.same(await list({}, { blockNumber: 1, logIndex: 3, inclusive: true }, 2), ['1.3', '1.2']);
  t.same(await list({}, { blockNumber: 1, logIndex: 3, inclusive: true }, 2, 'asc'), ['1.3', '2.4']);
  t.same(await list({}, { blockNumber: 2, logIndex: 0 }), ['1.3', '1.2', '1.1', '1.0']);
  await walks('token T721', { tokenAddress: T721 }, ['2.4', '1.3', '1.1']);
  await walks('T721 #1', { tokenAddress: T721, tokenId: 1n }, ['2.4', '1.1']);
  t.same(await list({ tokenAddress: T721, tokenId: 1n }, { blockNumber: 2, logIndex: 4 }), ['1.1']);
  t.same(await list({ tokenAddress: T1155, tokenId: 2n }), ['1.2'], 'batch contains the id');
  await walks('types', { types: ['ERC-20', 'ERC-1155'] }, ['2.7', '1.2', '1.0']);
  t.same(await list({ types: [] }), []);
  // address and direction
  await walks('A any', { address: A }, ['2.4', '1.3', '1.2', '1.1', '1.0']);
  t.same(await list({ address: A, direction: 'any' }), await list({ address: A }), "'any' is the default direction");
  await walks('A from', { address: A, direction: 'from' }, ['2.4', '1.2', '1.0']);
  await walks('A to', { address: A, direction: 'to' }, ['1.3', '1.1']);
  await walks('B any', { address: B }, ['2.7', '2.4', '1.2', '1.0']);
  await walks('C from', { address: C, direction: 'from' }, []);
  await walks('A to, T721', { address: A, direction: 'to', tokenAddress: T721 }, ['1.3', '1.1']);
  await walks('A any, T721 #1', { address: A, tokenAddress: T721, tokenId: 1n }, ['2.4', '1.1']);
  await walks('B, ERC-20', { address: B, types: ['ERC-20'] }, ['2.7', '1.0']);
  // block ranges, inclusive at both ends
  await walks('range 2..', { blocks: { from: 2 } }, ['2.7', '2.4']);
  await walks('range 1..1', { blocks: { from: 1, to: 1 } }, ['1.3', '1.2', '1.1', '1.0']);
  await walks('B from, range ..1', { address: B, direction: 'from', blocks: { to: 1 } }, []);
  await walks('T721, range ..1', { tokenAddress: T721, blocks: { to: 1 } }, ['1.3', '1.1']);
  t.same(await list({ blocks: { from: 2, to: 1 } }), [], 'an empty range');
  // one transaction: logIndex ASC is 'asc'; only the cursor's logIndex counts
  await walks('tx x11', { transactionHash: x11.hash }, ['1.3', '1.2']);
  t.same(await list({ transactionHash: x11.hash }, { blockNumber: 1, logIndex: 2 }, 100, 'asc'), ['1.3']);
  t.same(await list({ transactionHash: x11.hash }, { blockNumber: 1, logIndex: 2, inclusive: true }, 100, 'asc'), ['1.2', '1.3']);
  t.same(await list({ transactionHash: x11.hash }, { blockNumber: 1, logIndex: 3, inclusive: true }, 100, 'desc'), ['1.3', '1.2']);
  t.same(await list({ transactionHash: x11.hash, types: ['ERC-721'] }, null, 100, 'asc'), ['1.3']);
  t.same(await list({ transactionHash: x11.hash, address: B, direction: 'to' }, null, 100, 'asc'), ['1.2']);
  t.same(await list({ transactionHash: x11.hash, blocks: { to: 0 } }), [], 'a transaction outside the range');
});

storeTest('token transfers: method ids of the parent transaction (OR), alone and with other filters', async (t, s) => {
  const b1 = block(1);
  const b2 = block(2);
  const x10 = tx(b1, 0);
  const x11 = tx(b1, 1);
  const x20 = tx(b2, 0);
  const TRANSFER = hex('0xa9059cbb');
  const APPROVE = hex('0x095ea7b3');
  const withMethod = (r: TokenTransferRecord, methodId: Hex | null): TokenTransferRecord => ({ ...r, methodId });
  await s.writeBlocks([
    bundle(b1, {
      transactions: [x10, x11],
      tokenTransfers: [
        withMethod(transfer(x10, 0, T20, 'ERC-20', A, B, [], 5n), TRANSFER),
        withMethod(transfer(x10, 1, T721, 'ERC-721', ZERO, A, [1n]), TRANSFER),
        withMethod(transfer(x11, 2, T1155, 'ERC-1155', A, B, [1n, 2n]), APPROVE),
        withMethod(transfer(x11, 3, T721, 'ERC-721', ZERO, A, [2n]), null),
      ],
    }),
    bundle(b2, {
      transactions: [x20],
      tokenTransfers: [withMethod(transfer(x20, 4, T721, 'ERC-721', A, B, [1n]), APPROVE), withMethod(transfer(x20, 7, T20, 'ERC-20', B, C, [], 1n), TRANSFER)],
    }),
  ]);
  const key = (r: TokenTransferRecord) => `${r.blockNumber}.${r.logIndex}`;
  const cursorOf = (r: TokenTransferRecord) => ({ blockNumber: r.blockNumber, logIndex: r.logIndex });
  type Filter = Parameters<DataSource['listTokenTransfers']>[0];
  const walks = (label: string, f: Filter, expected: readonly string[]) =>
    walksBothWays(t, label, (p) => s.listTokenTransfers(f, p), cursorOf, key, expected);
  await walks('transfer', { methodIds: [TRANSFER] }, ['2.7', '1.1', '1.0']);
  await walks('transfer or approve (one seek each, merged)', { methodIds: [APPROVE, TRANSFER, APPROVE] }, ['2.7', '2.4', '1.2', '1.1', '1.0']);
  await walks('approve, ERC-721', { methodIds: [APPROVE], types: ['ERC-721'] }, ['2.4']);
  await walks('transfer, address A', { methodIds: [TRANSFER], address: A }, ['1.1', '1.0']);
  await walks('approve, token T1155', { methodIds: [APPROVE], tokenAddress: T1155 }, ['1.2']);
  await walks('transfer, block 2', { methodIds: [TRANSFER], blocks: { from: 2 } }, ['2.7']);
  await walks('approve, transaction x11', { methodIds: [APPROVE], transactionHash: x11.hash }, ['1.2']);
  t.same(await s.listTokenTransfers({ methodIds: [] }, { after: null, limit: 10, order: 'desc' }), [], 'an empty list matches nothing');
  t.same(
    (await s.listTokenTransfers({ methodIds: [TRANSFER, APPROVE] }, { after: { blockNumber: 2, logIndex: 4 }, limit: 2, order: 'desc' })).map(key),
    ['1.2', '1.1'],
    'a cursor and a limit over the merged seeks',
  );
});
