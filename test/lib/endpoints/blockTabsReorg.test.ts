/**
 * The block tabs of a block that lost consensus (the fixture chain has none), over every store:
 * by number → 404 "Block lost consensus"; by hash → an empty page (the lists hold consensus
 * rows only), while the consensus sibling lists its own rows.
 */
import { createExplorer } from '../../../lib/index.ts';
import type { BlockRecord, WithdrawalRecord } from '../../../lib/index.ts';
import { A, B, block, bundle, itx, tx } from '../../ports/records.ts';
import { storeTest } from '../../ports/stores.ts';

const EMPTY = { items: [], next_page_params: null };
const wd = (b: BlockRecord, index: number): WithdrawalRecord => ({
  index,
  validatorIndex: 1,
  address: A,
  amount: 1_000_000_000n,
  blockNumber: b.number,
  blockHash: b.hash,
  timestamp: b.timestamp,
});

storeTest('block tabs of reorged blocks', async (t, s) => {
  const main = [block(1), block(2)];
  const side2 = block(2, { tag: 'x', consensus: false });
  const side3 = block(3, { tag: 'y', consensus: false });
  const mainTx = tx(main[1] ?? null, 0, { tag: 'main' });
  const sideTx = tx(side2, 0, { tag: 'side' });
  const orphanTx = tx(side3, 0, { tag: 'orphan' });
  await s.writeBlocks([
    bundle(main[0] ?? block(1)),
    bundle(side2, { transactions: [sideTx], internalTransactions: [itx(sideTx, 0, 'call', A, B), itx(sideTx, 1, 'call', B, A)], withdrawals: [wd(side2, 7)] }),
    bundle(main[1] ?? block(2), {
      transactions: [mainTx],
      internalTransactions: [itx(mainTx, 0, 'call', A, B), itx(mainTx, 1, 'call', B, A)],
      withdrawals: [wd(main[1] ?? block(2), 5), wd(main[1] ?? block(2), 6)],
    }),
    bundle(side3, { transactions: [orphanTx], internalTransactions: [itx(orphanTx, 0, 'call', A, B), itx(orphanTx, 1, 'create', B, null, A)], withdrawals: [wd(side3, 8)] }),
  ]);
  const ex = createExplorer({ chains: { '1': s } });
  const get = (path: string) => ex.handle({ path: `/api/v2${path}` });

  const byNumber = await get('/blocks/2/transactions');
  t.equal(byNumber.status, 200);
  t.same((byNumber.body as { items: { hash: string }[] }).items.map((i) => i.hash), [mainTx.hash], 'the consensus block of the height lists its own');
  const internal = await get('/blocks/2/internal-transactions');
  t.same((internal.body as { items: { transaction_hash: string }[] }).items.map((i) => i.transaction_hash), [mainTx.hash], 'and its own traces');

  const withdrawals = await get('/blocks/2/withdrawals');
  t.same((withdrawals.body as { items: { index: number }[] }).items.map((i) => i.index), [6, 5], 'and its own withdrawals');
  t.equal(((await get('/blocks/2')).body as { withdrawals_count: number }).withdrawals_count, 2);
  t.equal(((await get(`/blocks/${side2.hash}`)).body as { withdrawals_count: number }).withdrawals_count, 0, 'a reorged block counts none');
  t.same(((await get('/withdrawals')).body as { items: { index: number }[] }).items.map((i) => i.index), [6, 5], '/withdrawals: consensus blocks only');

  for (const tab of ['transactions', 'internal-transactions', 'withdrawals']) {
    const bySideHash = await get(`/blocks/${side2.hash}/${tab}`);
    t.same({ status: bySideHash.status, body: bySideHash.body }, { status: 200, body: EMPTY }, `${tab} of a reorged block by hash: empty`);
    const lost = await get(`/blocks/3/${tab}`);
    t.same({ status: lost.status, body: lost.body }, { status: 404, body: { message: 'Block lost consensus', hash: side3.hash } }, `${tab} by a height with no consensus block: lost consensus`);
  }
});
