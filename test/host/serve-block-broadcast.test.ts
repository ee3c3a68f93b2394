/**
 * `scoutkit serve --block-broadcast count`: Blockscout's count mode from the command line. A
 * `serve` process on a SQLite file, the official `phoenix` client on blocks:new_block, blocks
 * written into the file by this (another) process: only `new_blocks_count` frames come, counting
 * every block once; a bad mode is refused before anything opens.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Socket } from 'phoenix';
import t from 'tap';
import WebSocket from 'ws';
import { openSqlStore } from '../../adapters/sql/index.ts';
import { buildFixtureChain } from '../../fixture/index.ts';
import { parseServeArgs } from '../../host/cli.ts';
import { startServe, until } from '../support/children.ts';

t.test('parsing: block or count; anything else is refused', async (t) => {
  t.equal(parseServeArgs(['--db', 'memory:']).blockBroadcast, undefined, 'absent: each block');
  t.equal(parseServeArgs(['--db', 'memory:', '--block-broadcast', 'count']).blockBroadcast, 'count');
  t.equal(parseServeArgs(['--db', 'memory:', '--block-broadcast', 'block']).blockBroadcast, 'block');
  t.throws(() => parseServeArgs(['--db', 'memory:', '--block-broadcast', 'every']), /--block-broadcast expects block or count, got "every"/);
});

t.test('serve --block-broadcast count: new_blocks_count frames only, each block counted once', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'scoutkit-broadcast-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const db = `sqlite:${join(dir, 'chain.sqlite')}`;
  const { bundles } = buildFixtureChain();
  const writer = await openSqlStore(db);
  t.teardown(() => writer.close());
  await writer.writeBlocks(bundles.slice(0, 5));

  const { child, url } = await startServe(['--db', db, '--block-broadcast', 'count']);
  t.teardown(() => child.stop());
  const socket = new Socket(`${url.replace(/^http/, 'ws')}/socket/v2`, { transport: WebSocket, params: {} });
  socket.connect();
  t.teardown(() => socket.disconnect());
  const got: { event: string; payload: unknown }[] = [];
  const channel = socket.channel('blocks:new_block', {});
  for (const event of ['new_block', 'new_blocks_count']) channel.on(event, (payload: unknown) => void got.push({ event, payload }));
  await new Promise((resolve, reject) => channel.join().receive('ok', resolve).receive('error', reject));

  await writer.writeBlocks(bundles.slice(5, 8));
  await writer.writeBlocks(bundles.slice(8, 10));
  const counted = (): number => got.reduce((n, g) => n + ((g.payload as { count?: number }).count ?? 0), 0);
  await until('five blocks counted', async () => counted() >= 5, 30_000);
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.same(new Set(got.map((g) => g.event)), new Set(['new_blocks_count']), `no new_block frame (${got.length} frames)`);
  t.ok(got.every((g) => (g.payload as { type?: string }).type === 'block'), 'each of type block');
  t.equal(counted(), 5, 'the two batches counted, 3 + 2, nothing twice');
});
