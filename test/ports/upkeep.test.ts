/**
 * The sink's chain identity and its optional bulk upkeep (the port suite, over every store), and
 * the StoreLease port over each store's lease (memory: in process; SQLite: a lock on a file
 * beside the database; Postgres' advisory lock is proven by test/indexer/lease.test.ts across
 * processes, not here, where other suites share the database).
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { createMemoryLease } from '../../adapters/memory/index.ts';
import { createSqlLease } from '../../adapters/sql/index.ts';
import type { StoreLease } from '../../lib/ports.ts';
import { selectedStoreNames } from '../support/stores.ts';
import { A, block, bundle, h32, page } from './records.ts';
import { storeTest } from './stores.ts';

storeTest('the chain identity a store holds', async (t, s) => {
  t.equal(await s.getChainIdentity(), null, 'none before the first indexer run');
  await s.setChainIdentity({ chainId: 1, genesisHash: h32('genesis one') });
  t.same(await s.getChainIdentity(), { chainId: 1, genesisHash: h32('genesis one') });
  await s.setChainIdentity({ chainId: 31337, genesisHash: h32('genesis two') });
  t.same(await s.getChainIdentity(), { chainId: 31337, genesisHash: h32('genesis two') }, 'a new identity replaces the old one');
});

storeTest('bulk mode: reads stay correct, settle ends it', async (t, s) => {
  if (s.beginBulk === undefined || s.inBulk === undefined || s.settle === undefined) {
    t.ok(s.beginBulk === undefined && s.inBulk === undefined, 'a store without bulk mode has neither beginBulk nor inBulk');
    if (s.settle !== undefined) await s.settle();
    return;
  }
  t.equal(await s.inBulk(), false, 'not in bulk before beginBulk');
  await s.beginBulk();
  await s.beginBulk();
  t.equal(await s.inBulk(), true, 'in bulk after beginBulk (idempotent)');
  await s.writeBlocks([bundle(block(1)), bundle(block(2), { coinBalances: [{ address: A, blockNumber: 2, value: 5n }] })]);
  t.same((await s.listBlocks({ kind: 'block' }, page())).map((b) => b.number), [2, 1], 'reads in bulk see the writes');
  await s.settle();
  t.equal(await s.inBulk(), false, 'settle ends bulk mode');
  t.same((await s.listBlocks({ kind: 'block' }, page())).map((b) => b.number), [2, 1], 'and the same reads after');
  t.equal(await s.getCoinBalance(A), 5n);
});

const leases: Partial<Record<string, () => { readonly open: () => StoreLease; readonly close: () => void }>> = {
  memory: () => {
    const store = {};
    return { open: () => createMemoryLease(store), close: () => {} };
  },
  sqlite: () => {
    const file = join(tmpdir(), `scoutkit-lease-${process.pid}-${randomBytes(4).toString('hex')}.sqlite`);
    return { open: () => createSqlLease(`sqlite:${file}`), close: () => rmSync(`${file}-lease`, { force: true }) };
  },
};

for (const name of selectedStoreNames()) {
  const make = leases[name];
  if (make === undefined) continue;
  t.test(`the store lease: ${name}`, async (t) => {
    const { open, close } = make();
    t.teardown(close);
    const first = await open().tryAcquire();
    if (!first.acquired) throw new Error('a free lease was not taken');
    t.equal(first.lease.lost.aborted, false, 'taken, not lost');
    const second = await open().tryAcquire();
    t.equal(second.acquired, false, 'a second writer finds it held');
    if (!second.acquired) t.ok(second.holder === null || second.holder.pid === first.lease.holder.pid, 'by this process, when the store can tell');
    await first.lease.release();
    const third = await open().tryAcquire();
    t.equal(third.acquired, true, 'free again once released');
    if (third.acquired) await third.lease.release();
  });
}
