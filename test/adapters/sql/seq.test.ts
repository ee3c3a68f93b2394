/**
 * The write order of blocks (blocks.seq: the latest-written non-consensus block is preferred
 * at a height) across writers: each write numbers its blocks after the highest seq stored (one
 * entry of blocks_seq, migration 017), so another connection's writes count, and pending
 * writes, re-writes and rollbacks keep the order.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { openSqlStore } from '../../../adapters/sql/index.ts';
import { block, bundle, tx } from '../../ports/records.ts';

const dir = mkdtempSync(join(tmpdir(), 'scoutkit-seq-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

t.test('the latest-written block at the head wins, whichever connection wrote it', async (t) => {
  const file = `sqlite:${join(dir, 'shared.sqlite')}`;
  const a = await openSqlStore(file);
  const b = await openSqlStore(file);
  t.teardown(async () => {
    await b.close();
    await a.close();
  });
  const side = (tag: string) => bundle(block(2, { tag, consensus: false }));
  const head = async () => (await a.getIndexedHead())?.hash;

  await a.writeBlocks([bundle(block(1)), side('x')]);
  t.equal(await head(), side('x').block.hash);
  // three blocks from the other connection: their seqs pass what `a` wrote last
  await b.writeBlocks([side('y1'), side('y2'), side('y3')]);
  t.equal(await head(), side('y3').block.hash, 'the other writer’s latest');
  await a.writeBlocks([side('z')]);
  t.equal(await head(), side('z').block.hash, 'written after the other writer: preferred');
  await a.writeBlocks([side('z')]);
  t.equal(await head(), side('z').block.hash, 'a re-write changes nothing');
  await a.writePendingTransactions([tx(null, 0, { tag: 'pending' })]);
  await a.writeBlocks([side('w')]);
  t.equal(await head(), side('w').block.hash, 'after a pending write');
  await b.writePendingTransactions([tx(null, 0, { tag: 'pending2' })]);
  await b.writeBlocks([side('v1'), side('v2')]);
  await a.writeBlocks([side('u')]);
  t.equal(await head(), side('u').block.hash, 'after the other writer’s pending and block writes');
  await a.rollbackAbove(1);
  await a.writeBlocks([side('s')]);
  t.equal(await head(), side('s').block.hash, 'after a rollback');
});
