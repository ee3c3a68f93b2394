/** The DataSink contract: idempotent, atomic writes, replaced heights, non-consensus blocks, rollback. (the port suite, over every store). */
import type { Address, TokenBalanceRecord } from '../../lib/domain/records.ts';
import { h32, ZERO, A, B, C, MINER, T20, T721, T1155, T404, block, tx, log, transfer, token, bal, inst, address, bundle, page } from './records.ts';
import { storeTest } from './stores.ts';

storeTest('empty store', async (t, s) => {
  t.equal(await s.getHighestBlockNumber(), null);
  t.equal(await s.getIndexedHead(), null);
  t.equal(await s.getBlock({ number: 0 }), null);
  t.equal(await s.getTransaction(h32('x')), null);
  t.same(await s.listBlocks({ kind: 'block' }, page()), []);
  t.same(await s.listTokenBalances({ holder: A }, page()), []);
});

storeTest('writing the same block twice changes nothing', async (t, s) => {
  const b1 = block(1);
  const x = tx(b1, 0);
  await s.writeBlocks([bundle(b1, { transactions: [x], tokenBalances: [bal(b1, A, T20, 'ERC-20', 5n)], tokens: [token(T20, 'ERC-20')] })]);
  // same number and hash, different content: ignored
  await s.writeBlocks([
    bundle({ ...b1, miner: C }, { transactions: [x, tx(b1, 1)], tokenBalances: [bal(b1, A, T20, 'ERC-20', 7n)] }),
  ]);
  t.equal((await s.getBlock({ number: 1 }))?.miner, MINER);
  t.equal((await s.listTransactions({ status: 'validated' }, page())).length, 1);
  t.same(await s.listTokenBalances({ holder: A }, page()), [{ holder: A, tokenAddress: T20, tokenType: 'ERC-20', tokenId: null, value: 5n }]);
  t.equal((await s.getToken(T20))?.holdersCount, 1n, 'holdersCount is the store’s, not the bundle’s');
  // a duplicate inside one batch is also a no-op
  const b2 = block(2);
  await s.writeBlocks([bundle(b2), bundle(b2)]);
  t.same(await s.getIndexedHead(), { number: 2, hash: b2.hash });
});

storeTest('writeBlocks is atomic', async (t, s) => {
  const b1 = block(1);
  await s.writeBlocks([bundle(b1)]);

  const b2 = block(2);
  const b3 = block(3);
  const x3 = tx(b3, 0);
  // second bundle names a log of a transaction it does not contain
  await t.rejects(
    s.writeBlocks([bundle(b2, { transactions: [tx(b2, 0)] }), bundle(b3, { transactions: [x3], logs: [log(tx(b3, 5), 0)] })]),
    { name: 'InvalidWriteError' },
  );
  // a bundle whose rows throw while being read, mid-way through a batch
  const exploding = bundle(b3, { transactions: [x3] });
  const balances: TokenBalanceRecord[] = [bal(b3, A, T20, 'ERC-20', 1n)];
  Object.defineProperty(balances, 1, { enumerable: true, get: () => { throw new Error('boom'); } });
  await t.rejects(s.writeBlocks([bundle(b2), { ...exploding, tokenBalances: balances }]), /boom|could not be cloned/);
  // rows of the wrong block, lower-case violations
  await t.rejects(s.writeBlocks([bundle(b2, { transactions: [tx(b3, 0)] })]), { name: 'InvalidWriteError' });
  await t.rejects(s.writeBlocks([bundle(b2, { tokens: [token('0xABC' as Address, 'ERC-20')] })]), { name: 'InvalidWriteError' });
  // a field of the wrong type (a number where a bigint belongs)
  await t.rejects(
    s.writeBlocks([bundle(b2, { tokenBalances: [{ ...bal(b2, A, T20, 'ERC-20', 1n), value: 1 as unknown as bigint }] })]),
    { name: 'InvalidWriteError' },
  );
  // a hash already stored at another height
  await t.rejects(s.writeBlocks([bundle({ ...b2, hash: b1.hash })]), { name: 'InvalidWriteError' });

  t.equal(await s.getHighestBlockNumber(), 1);
  t.equal(await s.getBlock({ number: 2 }), null);
  t.equal(await s.getTransaction(tx(b2, 0).hash), null);
  t.same(await s.listTokenBalances({ holder: A }, page()), []);
});

storeTest('a different block at a stored height replaces it', async (t, s) => {
  const old = block(1, { tag: 'old' });
  const oldTx = tx(old, 0, { tag: 'old-tx' });
  await s.writeBlocks([
    bundle(old, { transactions: [oldTx], tokenBalances: [bal(old, A, T20, 'ERC-20', 9n)], tokens: [token(T20, 'ERC-20')] }),
  ]);
  const neu = block(1, { tag: 'new' });
  const newTx = tx(neu, 0, { tag: 'new-tx' });
  await s.writeBlocks([bundle(neu, { transactions: [newTx] })]);
  t.equal((await s.getBlock({ number: 1 }))?.hash, neu.hash);
  t.equal(await s.getBlock({ hash: old.hash }), null);
  t.equal(await s.getTransaction(oldTx.hash), null);
  t.equal((await s.getTransaction(newTx.hash))?.blockHash, neu.hash);
  t.same(await s.listTokenBalances({ holder: A }, page()), []);
  t.equal(await s.getToken(T20), null, 'token first written by the replaced block is gone');
});

storeTest('non-consensus blocks', async (t, s) => {
  const main = block(5);
  const side = block(5, { tag: 'side', consensus: false, miner: C });
  const sideTx = tx(side, 0, { tag: 'side-tx' });
  await s.writeBlocks([bundle(side, { transactions: [sideTx], tokenTransfers: [transfer(sideTx, 0, T20, 'ERC-20', A, B, [], 1n)] })]);
  t.equal((await s.getBlock({ number: 5 }))?.hash, side.hash, 'a non-consensus block when nothing else');
  t.equal(await s.getHighestBlockNumber(), null);
  t.same(await s.getIndexedHead(), { number: 5, hash: side.hash });
  await s.writeBlocks([bundle(main)]);
  t.equal((await s.getBlock({ number: 5 }))?.hash, main.hash, 'consensus block preferred');
  t.equal((await s.getBlock({ hash: side.hash }))?.hash, side.hash);
  t.same((await s.listBlocks({ kind: 'block' }, page())).map((b) => b.hash), [main.hash]);
  t.same((await s.listBlocks({ kind: 'reorg' }, page())).map((b) => b.hash), [side.hash]);
  t.same((await s.listBlocks({ kind: 'reorg', miner: MINER }, page())).length, 0);
  t.same((await s.listBlocks({ kind: 'reorg', miner: C }, page())).length, 1);
  t.same(await s.listBlocks({ kind: 'uncle' }, page()), []);
  t.same(await s.listTransactions({ status: 'validated' }, page()), [], 'no validated txs from non-consensus blocks');
  t.same(await s.listTokenTransfers({}, page()), [], 'no transfers from non-consensus blocks');
  t.equal((await s.getTransaction(sideTx.hash))?.hash, sideTx.hash, 'still found by hash');
});

storeTest('rollbackAbove restores balances, holdersCount, owners, addresses, tokens', async (t, s) => {
  const [b1, b2, b3] = [block(1), block(2), block(3)];
  const x1 = tx(b1, 0);
  const x2 = tx(b2, 0);
  const x3 = tx(b3, 0);
  await s.writeBlocks([
    bundle(b1, {
      transactions: [x1],
      tokens: [token(T20, 'ERC-20', 'First'), token(T721, 'ERC-721'), token(T1155, 'ERC-1155')],
      tokenTransfers: [transfer(x1, 0, T721, 'ERC-721', ZERO, A, [7n])],
      tokenBalances: [
        bal(b1, A, T20, 'ERC-20', 10n),
        bal(b1, ZERO, T20, 'ERC-20', 50n),
        bal(b1, A, T721, 'ERC-721', 1n),
        bal(b1, A, T1155, 'ERC-1155', 1n, 5n),
      ],
      tokenInstances: [inst(b1, T721, 'ERC-721', 7n), inst(b1, T1155, 'ERC-1155', 5n)],
      addresses: [address(b1, A, 'alice')],
    }),
    bundle(b2, {
      transactions: [x2],
      tokens: [token(T20, 'ERC-20', 'Renamed')],
      tokenBalances: [bal(b2, A, T20, 'ERC-20', 0n), bal(b2, B, T20, 'ERC-20', 4n), bal(b2, C, T20, 'ERC-20', 6n)],
    }),
    bundle(b3, {
      transactions: [x3],
      tokens: [token(T404, 'ERC-404')],
      tokenTransfers: [transfer(x3, 0, T721, 'ERC-721', A, B, [7n])],
      tokenBalances: [
        bal(b3, C, T20, 'ERC-20', 0n),
        bal(b3, A, T721, 'ERC-721', 0n),
        bal(b3, B, T721, 'ERC-721', 1n),
        bal(b3, B, T1155, 'ERC-1155', 1n, 5n),
      ],
      tokenInstances: [inst(b3, T1155, 'ERC-1155', 5n, 'renamed')],
      addresses: [address(b3, A, 'alice-renamed')],
    }),
  ]);
  await s.writePendingTransactions([tx(null, 0, { tag: 'pending' })]);

  t.equal((await s.getToken(T20))?.holdersCount, 1n, 'only B is positive at 3 (zero address excluded)');
  t.equal((await s.getToken(T20))?.name, 'Renamed');
  t.equal((await s.getTokenInstances([{ tokenAddress: T721, tokenId: 7n }]))[0]?.owner, B);
  t.same((await s.getTokenInstances([{ tokenAddress: T1155, tokenId: 5n }]))[0] ?? null, {
    tokenAddress: T1155, tokenId: 5n, tokenType: 'ERC-1155', metadata: { name: 'renamed' }, owner: null, isUnique: false,
  });
  t.same(await s.getAddresses([A]), [{ hash: A, isContract: false, name: 'alice-renamed', creationTransactionHash: null, creatorAddress: null }]);
  t.ok(await s.getToken(T404));

  await s.rollbackAbove(2);
  t.equal(await s.getHighestBlockNumber(), 2);
  t.same(await s.getIndexedHead(), { number: 2, hash: b2.hash });
  t.equal(await s.getTransaction(x3.hash), null);
  t.equal((await s.getToken(T20))?.holdersCount, 2n, 'B and C again');
  t.equal((await s.getToken(T721))?.holdersCount, 1n);
  t.equal(await s.getToken(T404), null, 'token first written above the height is gone');
  t.equal((await s.getTokenInstances([{ tokenAddress: T721, tokenId: 7n }]))[0]?.owner, A);
  t.same((await s.getTokenInstances([{ tokenAddress: T1155, tokenId: 5n }]))[0] ?? null, {
    tokenAddress: T1155, tokenId: 5n, tokenType: 'ERC-1155', metadata: { name: '#5' }, owner: A, isUnique: true,
  });
  t.equal((await s.getAddresses([A]))[0]?.name, 'alice');
  t.same((await s.listTokenTransfers({ tokenAddress: T721 }, page())).map((r) => r.blockNumber), [1]);
  t.equal((await s.listTransactions({ status: 'pending' }, page())).length, 1, 'pending kept');

  await s.rollbackAbove(0);
  t.equal(await s.getIndexedHead(), null);
  t.equal(await s.getToken(T20), null);
  t.same(await s.getAddresses([A]), []);
  t.equal((await s.listTransactions({ status: 'pending' }, page())).length, 1);
});
