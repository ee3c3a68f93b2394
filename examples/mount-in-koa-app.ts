/**
 * Mount the explorer in an existing Koa app, under a prefix, next to the app's own routes.
 *   npx tsx examples/mount-in-koa-app.ts
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import Koa from 'koa';
import Router from '@koa/router';
import { createExplorer } from 'scoutkit';
import { createMemoryStore } from 'scoutkit/memory';
import { explorerMiddleware } from 'scoutkit/host';
import { writeDemoBlocks } from './chain.ts';

export async function buildApp(): Promise<Koa> {
  const store = createMemoryStore();
  await writeDemoBlocks(store);
  const explorer = createExplorer({ chains: { '1': store } });

  const app = new Koa();
  // the app's own routes, before and after the explorer
  const own = new Router();
  own.get('/', (ctx) => {
    ctx.body = { app: 'my-app' };
  });
  own.get('/explorer/about', (ctx) => {
    ctx.body = 'an explorer inside my app';
  });
  app.use(own.routes());
  app.use(explorerMiddleware(explorer, { prefix: '/explorer', requireKeyForMultichain: false }));
  return app;
}

/** Serve on a free port, request both the app's routes and the explorer's, stop. */
export async function mountInKoaApp(): Promise<Record<string, number>> {
  const server = (await buildApp()).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const status = async (path: string) => (await fetch(url + path)).status;
    return {
      ownRoot: await status('/'),
      ownAbout: await status('/explorer/about'),
      blocks: await status('/explorer/api/v2/blocks'),
      multichainBlock: await status('/explorer/1/api/v2/blocks/1'),
      unprefixed: await status('/api/v2/blocks'), // not ours without the prefix: the app's 404
    };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await mountInKoaApp());
}
