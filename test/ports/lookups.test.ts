/** Batch lookups: each key once, missing keys absent, latest values. (the port suite, over every store). */
import type { TransactionRecord } from '../../lib/domain/records.ts';
import { ZERO, A, B, C, T20, T721, T404, block, tx, token, bal, inst, address, bundle, page } from './records.ts';
import { storeTest } from './stores.ts';

storeTest('batch lookups; inputs and outputs are copies', async (t, s) => {
  const b1 = block(1);
  const b2 = block(2);
  const x = tx(b1, 0, { kinds: ['coin_transfer'] });
  const input = bundle(b1, {
    transactions: [x],
    tokens: [token(T20, 'ERC-20'), token(T721, 'ERC-721')],
    tokenBalances: [bal(b1, A, T20, 'ERC-20', 1n), bal(b1, B, T20, 'ERC-20', 2n), bal(b1, ZERO, T20, 'ERC-20', 2n)],
    tokenInstances: [inst(b1, T721, 'ERC-721', 1n)],
    addresses: [address(b1, A, 'a1'), address(b1, B, 'b1')],
  });
  await s.writeBlocks([input, bundle(b2, { addresses: [address(b2, A, 'a2')], tokens: [token(T20, 'ERC-20', 'New')] })]);
  const addrs = await s.getAddresses([A, B, C, A]);
  t.same(
    [...addrs].sort((p, q) => (p.hash < q.hash ? -1 : 1)).map((a) => `${a.hash}:${a.name}`),
    [`${A}:a2`, `${B}:b1`],
  );
  t.notOk('blockNumber' in addrs[0], 'AddressRecord has no blockNumber');
  const tokens = await s.getTokens([T20, T721, T404]);
  t.equal(tokens.length, 2);
  t.same(tokens.find((k) => k.address === T20), { ...token(T20, 'ERC-20', 'New'), holdersCount: 2n });

  // the caller's input is copied: mutating it afterwards changes nothing
  (input.transactions as TransactionRecord[]).length = 0;
  (x.kinds as string[]).push('contract_call');
  t.same((await s.getTransaction(x.hash))?.kinds, ['coin_transfer']);
  // what a read hands out is the caller's: changing it (where it is not frozen) changes nothing stored
  const got = await s.getTransaction(x.hash);
  attempt(() => { (got as { value: bigint }).value = 5n; });
  attempt(() => { (got?.kinds as string[]).push('x'); });
  t.same(await s.getTransaction(x.hash), { ...x, kinds: ['coin_transfer'] }, 'the stored transaction is unchanged');
  const instance = (await s.getTokenInstances([{ tokenAddress: T721, tokenId: 1n }]))[0] ?? null;
  attempt(() => { (instance?.metadata as Record<string, unknown>).name = 'evil'; });
  t.same((await s.getTokenInstances([{ tokenAddress: T721, tokenId: 1n }]))[0]?.metadata, { name: '#1' }, 'the stored metadata is unchanged');
  const list = await s.listTransactions({ status: 'validated' }, page());
  (list as TransactionRecord[]).length = 0;
  t.equal((await s.listTransactions({ status: 'validated' }, page())).length, 1, 'returned arrays are the caller’s own');
});

/** Run a mutation that a frozen record refuses (memory) and a fresh copy accepts (SQL). */
function attempt(mutate: () => void): void {
  try {
    mutate();
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
  }
}
