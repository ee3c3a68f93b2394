/**
 * What the memory store adds to the port contract (test/ports/ holds the contract itself, run
 * over every store): the records it hands out are frozen, so no caller can reach its state.
 */
import t from 'tap';
import { createMemoryStore } from '../../../adapters/memory/index.ts';
import type { TransactionRecord } from '../../../lib/domain/records.ts';
import { T721, block, bundle, inst, page, tx } from '../../ports/records.ts';

t.test('records handed out are frozen', async (t) => {
  const s = createMemoryStore();
  const b1 = block(1);
  const x = tx(b1, 0, { kinds: ['coin_transfer'] });
  await s.writeBlocks([bundle(b1, { transactions: [x], tokenInstances: [inst(b1, T721, 'ERC-721', 1n)] })]);
  const got = await s.getTransaction(x.hash);
  t.throws(() => { (got as { value: bigint }).value = 5n; }, TypeError);
  t.throws(() => { (got?.kinds as string[]).push('x'); }, TypeError);
  const instance = (await s.getTokenInstances([{ tokenAddress: T721, tokenId: 1n }]))[0] ?? null;
  t.throws(() => { (instance?.metadata as Record<string, unknown>).name = 'evil'; }, TypeError);
  const [listed] = await s.listTransactions({ status: 'validated' }, page());
  t.throws(() => { (listed as { hash: string }).hash = '0x'; }, TypeError);
  t.same((await s.listTransactions({ status: 'validated' }, page())).map((r: TransactionRecord) => r.hash), [x.hash]);
});
