/**
 * Transaction signatures (r, s, v, yParity) are stored as given and read back, for validated
 * and pending transactions; a record written without one reads back without one; a rollback
 * takes them with their transactions (the port suite, over every store).
 */
import { hex } from '../../lib/domain/hex.ts';
import { block, bundle, page, tx } from './records.ts';
import { storeTest } from './stores.ts';

storeTest('transaction signatures round-trip', async (t, s) => {
  const b1 = block(1);
  const b2 = block(2);
  const typed = tx(b1, 0, { type: 2, signature: { r: hex(`0x${'ab'.repeat(32)}`), s: hex(`0x${'0c'.repeat(31)}`), v: 1n, yParity: 1 } });
  const legacy = tx(b1, 1, { type: 0, signature: { r: hex('0x1'), s: hex('0x2'), v: 2n * 11155111n + 36n, yParity: null } });
  const unsigned = tx(b2, 0);
  const pending = { ...tx(null, 0, { tag: 'p' }), signature: { r: hex('0x3'), s: hex('0x4'), v: 27n, yParity: null } } as const;
  await s.writeBlocks([bundle(b1, { transactions: [typed, legacy] }), bundle(b2, { transactions: [unsigned] })]);
  await s.writePendingTransactions([pending]);
  t.same((await s.getTransaction(typed.hash))?.signature, typed.signature, 'a typed transaction: r, s, v and yParity');
  t.same((await s.getTransaction(legacy.hash))?.signature, legacy.signature, 'an EIP-155 v beyond 2^32, no yParity');
  t.notOk('signature' in ((await s.getTransaction(unsigned.hash)) ?? {}), 'written without: read without');
  t.same((await s.getTransaction(pending.hash))?.signature, pending.signature, 'a pending transaction');
  const listed = await s.listTransactions({ status: 'validated' }, page());
  t.same(listed.map((x) => x.signature), [undefined, legacy.signature, typed.signature], 'lists carry them too');
  await s.writeBlocks([bundle(b1, { transactions: [typed, legacy] })]);
  t.same((await s.getTransaction(typed.hash))?.signature, typed.signature, 'a re-write changes nothing');
  await s.rollbackAbove(0);
  t.equal(await s.getTransaction(typed.hash), null, 'rolled back with its block');
});
