/** getTransactions: a batch of getTransaction — each hash once, as getTransaction answers it (the port suite, over every store). */
import type { Hash } from '../../lib/domain/records.ts';
import { block, bundle, h32, tx } from './records.ts';
import { storeTest } from './stores.ts';

storeTest('getTransactions answers each hash as getTransaction does', async (t, s) => {
  const b1 = block(1);
  const b2 = block(2);
  const side = block(2, { tag: 'side', consensus: false });
  const mined = [tx(b1, 0), tx(b1, 1), tx(b2, 0)];
  const orphan = tx(side, 5, { tag: 'orphan' });
  const pending = tx(null, 0, { tag: 'pending' });
  await s.writeBlocks([bundle(b1, { transactions: mined.slice(0, 2) }), bundle(side, { transactions: [orphan] })]);
  await s.rollbackAbove(1);
  await s.writeBlocks([bundle(b2, { transactions: [mined[2] as (typeof mined)[number]] })]);
  await s.writePendingTransactions([pending]);
  if (s.getTransactions === undefined) {
    t.fail('both built-in stores answer getTransactions');
    return;
  }
  const missing = h32('nowhere');
  const asked: Hash[] = [mined[0]!.hash, missing, pending.hash, mined[2]!.hash, mined[0]!.hash, orphan.hash, mined[1]!.hash];
  const got = await s.getTransactions(asked);
  const expected = [];
  for (const h of new Set(asked)) {
    const one = await s.getTransaction(h);
    if (one !== null) expected.push(one);
  }
  const byHash = <X extends { hash: Hash }>(xs: readonly X[]): X[] => [...xs].sort((a, b) => (a.hash < b.hash ? -1 : 1));
  t.same(byHash(got), byHash(expected), 'the same records as one getTransaction per hash');
  t.equal(got.length, new Set(asked).size - (expected.some((x) => x.hash === orphan.hash) ? 1 : 2), 'each hash once, a missing one absent');
  t.same(got.find((x) => x.hash === pending.hash)?.blockNumber, null, 'a pending transaction is answered');
  t.same(await s.getTransactions([]), [], 'no hashes, no records');
  // a batch larger than one key chunk
  const many = Array.from({ length: 450 }, (_, i) => tx(b1, 10 + i, { tag: `many${i}` }));
  await s.writeBlocks([bundle(block(3), { transactions: [] })]);
  await s.rollbackAbove(0);
  await s.writeBlocks([bundle(b1, { transactions: many })]);
  const big = await s.getTransactions([...many.map((x) => x.hash), missing]);
  t.equal(big.length, 450, 'every hash of a large batch');
  t.same(byHash(big).map((x) => x.index), byHash(many).map((x) => x.index));
});
