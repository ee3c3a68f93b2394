/**
 * The examples run as the suite runs them: each exported function, end to end.
 */
import t from 'tap';
import { libraryCalls } from '../../examples/library-calls.ts';
import { mountInKoaApp } from '../../examples/mount-in-koa-app.ts';
import { standaloneServer } from '../../examples/standalone-server.ts';

t.test('library calls', async (t) => {
  const { blocks, block, bad } = await libraryCalls();
  t.equal(blocks.status, 200);
  t.equal((blocks.body as { items: unknown[] }).items.length, 3);
  t.equal(block.status, 200);
  t.equal((block.body as { height: number }).height, 2);
  t.equal(bad.status, 422);
});

t.test('mounted in a Koa app under a prefix', async (t) => {
  t.same(await mountInKoaApp(), { ownRoot: 200, ownAbout: 200, blocks: 200, multichainBlock: 200, unprefixed: 404 });
});

t.test('standalone server', async (t) => {
  t.same(await standaloneServer(), {
    health: 200,
    ready: 200,
    instance: 200,
    multichainWithKey: 200,
    multichainWithoutKey: 401,
  });
});
