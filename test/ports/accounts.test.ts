/**
 * getAddressCounters and listAccounts (over every store): the kept per-address counters with
 * Blockscout's contract rules, pending transactions counted and handed over when mined, a
 * non-consensus block counted only as a validation, idempotent re-writes, a replaced block and
 * a rollback taken back exactly; the top-accounts list in its four orders, with ties.
 */
import type { AccountRecord, Address, AddressCountersRecord } from '../../lib/domain/records.ts';
import type { AccountCursor, AccountFilter, Page } from '../../lib/ports.ts';
import type { TestStore } from '../support/stores.ts';
import type { Test } from 'tap';
import { A, B, C, MINER, T20, T721, ZERO, addr, address, block, bundle, page, transfer, tx, walk } from './records.ts';
import { storeTest } from './stores.ts';

const D = addr(0xd);
const E = addr(0xe);
const F = addr(0xf);

type Counts = readonly [transactions: number, transfers: number, gas: number, validations: number];

async function counters(s: TestStore, addresses: readonly Address[]): Promise<Record<string, Counts>> {
  const out: Record<string, Counts> = {};
  const rows: readonly AddressCountersRecord[] = await s.getAddressCounters(addresses);
  for (const r of rows) {
    out[r.address] = [Number(r.transactionsCount), Number(r.tokenTransfersCount), Number(r.gasUsageCount), Number(r.validationsCount)];
  }
  return out;
}

const key = (r: AccountRecord) => `${r.address}:${r.balance}:${r.transactionsCount}`;
const cursorOf = (r: AccountRecord): AccountCursor => ({ balance: r.balance, address: r.address, transactionsCount: r.transactionsCount });

/** Walk one order at page sizes 1, 2 and 100: every walk gives `expected`. */
async function walks(t: Test, s: TestStore, label: string, filter: AccountFilter, order: 'desc' | 'asc', expected: readonly string[]): Promise<void> {
  for (const limit of [1, 2, 100]) {
    const got = await walk<AccountRecord, AccountCursor>((after, l) => s.listAccounts(filter, { after, limit: l, order } satisfies Page<AccountCursor>), cursorOf, limit);
    t.same(got.map(key), expected, `${label}: ${filter.sort} ${order}, ${limit} a page`);
  }
}

const ALL = [A, B, C, D, E, F, MINER, ZERO];

function chain() {
  const b1 = block(1);
  const b2 = block(2, { miner: D });
  const b2r = block(2, { tag: 'r', consensus: false, miner: E });
  const x10 = tx(b1, 0, { from: A, to: B, gasUsed: 21000n });
  const x11 = tx(b1, 1, { from: A, to: A, gasUsed: 100n });
  const x12 = tx(b1, 2, { from: B, to: C, gasUsed: 50000n });
  const x13 = tx(b1, 3, { from: A, to: null, createdContract: C, gasUsed: 70000n });
  const x20 = tx(b2, 0, { from: D, to: C, gasUsed: 40000n });
  const x21 = tx(b2, 1, { from: E, to: B, gasUsed: 21000n });
  const x2r = tx(b2r, 0, { from: E, to: A, gasUsed: 21000n });
  const coin = (b: typeof b1, a: Address, value: bigint) => ({ address: a, blockNumber: b.number, value });
  const one = bundle(b1, {
    transactions: [x10, x11, x12, x13],
    tokenTransfers: [transfer(x10, 0, T20, 'ERC-20', A, B, [], 1n), transfer(x12, 1, T20, 'ERC-20', B, B, [], 1n), transfer(x12, 2, T20, 'ERC-20', C, A, [], 1n)],
    addresses: [{ ...address(b1, C, null), isContract: true, creationTransactionHash: x13.hash, creatorAddress: A }],
    coinBalances: [coin(b1, A, 100n), coin(b1, B, 100n), coin(b1, C, 50n), coin(b1, D, 0n), coin(b1, E, 7n), coin(b1, MINER, 100n)],
  });
  const two = bundle(b2, {
    transactions: [x20, x21],
    tokenTransfers: [transfer(x21, 3, T721, 'ERC-721', ZERO, E, [1n])],
    // A becomes a contract at block 2: its counters follow the contract rules from then on
    addresses: [{ ...address(b2, A, null), isContract: true }],
    coinBalances: [coin(b2, E, 100n), coin(b2, D, 3n)],
  });
  const reorged = bundle(b2r, { transactions: [x2r] });
  const p1 = tx(null, 0, { tag: 'p1', from: B, to: A });
  return { b1, b2, one, two, reorged, p1 };
}

storeTest('address counters: contract rules, pending, non-consensus blocks, re-writes, replacement and rollback', async (t, s) => {
  const { one, two, reorged, p1 } = chain();
  t.same(await counters(s, ALL), {}, 'an empty store counts nothing');
  await s.writeBlocks([one, two, reorged]);
  await s.writePendingTransactions([p1]);
  const written = {
    // a contract from block 2: transactions to it (x11 to itself, pending p1), gas of those (p1 has none yet)
    [A]: [2, 2, 100, 0],
    // x10 in, x12 out, x21 in, pending p1 out; the self-transfer counts once; gas of x12
    [B]: [4, 2, 50000, 0],
    // a contract: x12 and x20 came to it (its creation x13 has no `to`); gas of those
    [C]: [2, 1, 90000, 0],
    [D]: [1, 0, 40000, 1],
    // x2r sits in a non-consensus block: only the block it mined counts
    [E]: [1, 1, 21000, 1],
    [MINER]: [0, 0, 0, 1],
    [ZERO]: [0, 1, 0, 0],
  };
  t.same(await counters(s, ALL), written, 'counters after the writes');
  t.same(await counters(s, [F]), {}, 'an unknown address is absent');

  await s.writeBlocks([one, two, reorged]);
  await s.writePendingTransactions([p1]);
  t.same(await counters(s, ALL), written, 're-writing stored blocks and a known pending transaction changes nothing');

  // p1 mined: it leaves the pending count and enters the mined one, now with its gas
  const b3 = block(3);
  const mined = { ...p1, blockNumber: 3, blockHash: b3.hash, index: 0, timestamp: b3.timestamp, gasUsed: 21000n, status: 'ok' as const };
  await s.writeBlocks([bundle(b3, { transactions: [mined] })]);
  await s.writePendingTransactions([p1]);
  t.same(
    await counters(s, [A, B, MINER]),
    { [A]: [2, 2, 21100, 0], [B]: [4, 2, 71000, 0], [MINER]: [0, 0, 0, 2] },
    'a mined pending transaction counts once, with its gas',
  );

  // block 3 replaced by an empty block at the same height (mined by F)
  await s.writeBlocks([bundle(block(3, { tag: 'x', miner: F }))]);
  t.same(
    await counters(s, [A, B, F, MINER]),
    { [A]: [1, 2, 100, 0], [B]: [3, 2, 50000, 0], [F]: [0, 0, 0, 1], [MINER]: [0, 0, 0, 1] },
    'a replaced block takes back what it counted',
  );

  await s.rollbackAbove(1);
  t.same(
    await counters(s, ALL),
    {
      // no longer a contract: transactions from or to it, gas of those it sent
      [A]: [3, 2, 91100, 0],
      [B]: [2, 2, 50000, 0],
      [C]: [1, 1, 50000, 0],
      [MINER]: [0, 0, 0, 1],
    },
    'a rollback leaves the counts of block 1 alone',
  );
  await s.writeBlocks([two, reorged]);
  t.same(
    await counters(s, [C, D, E]),
    { [C]: [2, 1, 90000, 0], [D]: [1, 0, 40000, 1], [E]: [1, 1, 21000, 1] },
    'writing the rolled-back blocks again counts them again',
  );
});

storeTest('listAccounts: positive current balances in the four orders, ties, cursors, rollback', async (t, s) => {
  const { one, two, reorged, p1 } = chain();
  await s.writeBlocks([one, two, reorged]);
  await s.writePendingTransactions([p1]);
  const r = (a: Address, balance: number, txs: number) => `${a}:${balance}:${txs}`;
  // balances: A, B, E, MINER 100; C 50; D 3 (0 at block 1); transactions: A 2, B 4, C 2, D 1, E 1, MINER 0
  await walks(t, s, 'written', { sort: 'balance' }, 'desc', [r(A, 100, 2), r(B, 100, 4), r(E, 100, 1), r(MINER, 100, 0), r(C, 50, 2), r(D, 3, 1)]);
  await walks(t, s, 'written', { sort: 'balance' }, 'asc', [r(D, 3, 1), r(C, 50, 2), r(A, 100, 2), r(B, 100, 4), r(E, 100, 1), r(MINER, 100, 0)]);
  await walks(t, s, 'written', { sort: 'transactionsCount' }, 'desc', [r(B, 100, 4), r(A, 100, 2), r(C, 50, 2), r(E, 100, 1), r(D, 3, 1), r(MINER, 100, 0)]);
  await walks(t, s, 'written', { sort: 'transactionsCount' }, 'asc', [r(MINER, 100, 0), r(E, 100, 1), r(D, 3, 1), r(A, 100, 2), r(C, 50, 2), r(B, 100, 4)]);

  const after = (f: AccountFilter, order: 'desc' | 'asc', c: AccountCursor) => s.listAccounts(f, page(c, 100, order)).then((rows) => rows.map(key));
  t.same(await after({ sort: 'balance' }, 'desc', { balance: 100n, address: C, transactionsCount: 0n }), [r(E, 100, 1), r(MINER, 100, 0), r(C, 50, 2), r(D, 3, 1)], 'a cursor between stored rows');
  t.same(await after({ sort: 'balance' }, 'desc', { balance: 10n ** 80n, address: ZERO, transactionsCount: 0n }), [r(A, 100, 2), r(B, 100, 4), r(E, 100, 1), r(MINER, 100, 0), r(C, 50, 2), r(D, 3, 1)], 'a cursor above every balance');
  t.same(
    await after({ sort: 'transactionsCount' }, 'asc', { balance: 50n, address: ZERO, transactionsCount: 1n }),
    [r(D, 3, 1), r(A, 100, 2), r(C, 50, 2), r(B, 100, 4)],
    'transactions count asc: inside a tie of counts, by balance desc',
  );
  t.same(await s.listAccounts({ sort: 'balance' }, page(null, 0)), [], 'limit 0');

  await s.writeBlocks([one, two, reorged]);
  await walks(t, s, 're-written', { sort: 'balance' }, 'desc', [r(A, 100, 2), r(B, 100, 4), r(E, 100, 1), r(MINER, 100, 0), r(C, 50, 2), r(D, 3, 1)]);

  await s.rollbackAbove(1);
  // p1 is still pending: it counts for A (no longer a contract) and B
  await walks(t, s, 'rolled back', { sort: 'balance' }, 'desc', [r(A, 100, 4), r(B, 100, 3), r(MINER, 100, 0), r(C, 50, 1), r(E, 7, 0)]);
  await walks(t, s, 'rolled back', { sort: 'transactionsCount' }, 'desc', [r(A, 100, 4), r(B, 100, 3), r(C, 50, 1), r(MINER, 100, 0), r(E, 7, 0)]);
});
