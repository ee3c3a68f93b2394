/**
 * The pending pool's half of the DataSink (the port suite, over every store): the stored pending
 * transactions listed newest first and bounded, dropped (replaced or gone from the pool) with
 * what they counted, a mined one leaving with its block — and each of those a change of the
 * store's feed that names the transactions dropped.
 */
import type { Change } from '../../lib/feed/change.ts';
import type { ChangeFeed } from '../../lib/feed/change.ts';
import type { Hash } from '../../lib/domain/records.ts';
import { A, B, C, block, bundle, h32, page, tx } from './records.ts';
import { storeTest } from './stores.ts';

const feedOf = (s: object): ChangeFeed | undefined => ('feed' in s ? (s.feed as ChangeFeed) : undefined);

storeTest('pending transactions: listed, dropped, mined — each change in the feed', async (t, s) => {
  const list = s.pendingTransactions?.bind(s);
  const drop = s.dropPendingTransactions?.bind(s);
  if (list === undefined || drop === undefined) throw new Error('the store keeps no pending pool');
  const feed = feedOf(s);
  const seen: Change[] = [];
  const stop = feed?.subscribe((c) => seen.push(c));
  t.teardown(() => stop?.());

  const p1 = tx(null, 0, { tag: 'p1', from: A, to: B, nonce: 0, insertedAt: 1000 });
  const p2 = tx(null, 0, { tag: 'p2', from: A, to: C, nonce: 1, insertedAt: 2000 });
  const p3 = tx(null, 0, { tag: 'p3', from: B, to: C, nonce: 0, insertedAt: 2000 });
  await s.writePendingTransactions([p1, p2, p3]);
  const ordered = [p2, p3, p1].sort((x, y) => y.insertedAt - x.insertedAt || (x.hash < y.hash ? -1 : 1));
  t.same(await list(10), ordered.map((p) => ({ hash: p.hash, from: p.from, nonce: p.nonce })), 'newest first (insertedAt DESC, hash ASC), with sender and nonce');
  t.same(await list(2), ordered.slice(0, 2).map((p) => ({ hash: p.hash, from: p.from, nonce: p.nonce })), 'at most the limit');
  t.same(await list(0), [], 'a limit of 0: none');
  const countsOf = async (): Promise<Record<string, bigint>> =>
    Object.fromEntries((await s.getAddressCounters([A, B, C])).map((c) => [c.address, c.transactionsCount]));
  t.same(await countsOf(), { [A]: 2n, [B]: 2n, [C]: 2n }, 'pending transactions count for their parties');

  await drop([p2.hash, h32('never-stored')]);
  t.equal(await s.getTransaction(p2.hash), null, 'a dropped transaction is gone');
  t.same((await s.listTransactions({ status: 'pending' }, page())).map((x) => x.hash).sort(), [p1.hash, p3.hash].sort(), 'the others stay pending');
  t.same(await countsOf(), { [A]: 1n, [B]: 2n, [C]: 1n }, 'what it counted is taken back');
  t.equal(await s.countPendingTransactions({}), 2);
  await drop([]);
  await drop([p2.hash]);

  // p1 mined: it leaves the pool with its block
  const b1 = block(1);
  await s.writeBlocks([bundle(b1, { transactions: [tx(b1, 0, { tag: 'p1', from: A, to: B, nonce: 0 })] })]);
  t.same((await list(10)).map((p) => p.hash), [p3.hash], 'mined: no longer pending');
  t.equal((await s.getTransaction(p1.hash))?.blockNumber, 1);

  if (feed === undefined) return;
  const drops = seen.filter((c) => c.pendingDropped.length > 0);
  t.same(
    drops.map((c) => [c.blocks, c.pendingAdded, c.pendingDropped]),
    [
      [null, [], [p2.hash]],
      [{ from: 1, to: 1 }, [], [p1.hash]],
    ],
    'one change per drop that dropped anything (none for unknown hashes or an empty list), and the block that mined one names it',
  );
  const dropped = drops[0] as Change;
  t.same([...dropped.addresses].sort(), [A, C].sort(), 'the dropped transaction’s parties are touched');
  const versions = seen.map((c) => c.version);
  t.same(versions, [...versions].sort((x, y) => x - y), 'in version order');
  const replay = await feed.since((seen[0] as Change).version);
  t.same(
    replay?.map((c) => [c.version, c.pendingDropped]),
    seen.slice(1).map((c) => [c.version, c.pendingDropped]),
    'the dropped hashes are replayed by since() (SQL: from the change log)',
  );
  const replayedDrop = replay?.find((c) => c.blocks === null && c.pendingDropped.includes(p2.hash));
  t.same([...(replayedDrop?.addresses ?? [])].sort(), [A, C].sort(), 'replayed, a drop names its parties too (SQL: from the change log, the rows being gone)');
});

storeTest('dropping pending transactions: hashes only, never a mined one', async (t, s) => {
  const drop = s.dropPendingTransactions?.bind(s);
  if (drop === undefined) throw new Error('the store keeps no pending pool');
  const b1 = block(1);
  const mined = tx(b1, 0);
  await s.writeBlocks([bundle(b1, { transactions: [mined] })]);
  await drop([mined.hash as Hash]);
  t.equal((await s.getTransaction(mined.hash))?.blockNumber, 1, 'a mined transaction is not a pending one: untouched');
});
