/**
 * Library calls: the explorer without HTTP — for tests and scripts.
 *   npx tsx examples/library-calls.ts
 */
import { pathToFileURL } from 'node:url';
import { createExplorer, toJson } from 'scoutkit';
import type { ExplorerResponse } from 'scoutkit';
import { createMemoryStore } from 'scoutkit/memory';
import { writeDemoBlocks } from './chain.ts';

export async function libraryCalls(): Promise<{ blocks: ExplorerResponse; block: ExplorerResponse; bad: ExplorerResponse }> {
  const store = createMemoryStore();
  await writeDemoBlocks(store);
  const explorer = createExplorer({ chains: { '1': store } });

  // by path, exactly as over HTTP (both forms)
  const blocks = await explorer.handle({ path: '/api/v2/blocks' });
  const block = await explorer.handle({ path: '/1/api/v2/blocks/2' });
  // failures are responses too: never an exception
  const bad = await explorer.handle({ path: '/api/v2/blocks/not-a-block' });
  return { blocks, block, bad };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { blocks, block, bad } = await libraryCalls();
  console.log('GET /api/v2/blocks', blocks.status, toJson(blocks.body).slice(0, 200), '…');
  console.log('GET /1/api/v2/blocks/2', block.status, toJson(block.body).slice(0, 200), '…');
  console.log('GET /api/v2/blocks/not-a-block', bad.status, toJson(bad.body));
}
