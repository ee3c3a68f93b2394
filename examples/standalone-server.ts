/**
 * A standalone server from code (what `scoutkit serve` does): the API on both forms, /health,
 * /ready, API keys with plans, graceful close.
 *   npx tsx examples/standalone-server.ts          (serves on 127.0.0.1:3000 until Ctrl-C)
 */
import { pathToFileURL } from 'node:url';
import { createMemoryStore } from 'scoutkit/memory';
import { createServer } from 'scoutkit/host';
import type { ScoutkitServer } from 'scoutkit/host';
import { writeDemoBlocks } from './chain.ts';

export async function startStandaloneServer(port = 0): Promise<{ server: ScoutkitServer; url: string }> {
  const mainnet = createMemoryStore();
  await writeDemoBlocks(mainnet, 5);
  const testnet = createMemoryStore();
  await writeDemoBlocks(testnet, 2);
  const server = createServer({
    chains: { '1': mainnet, '11155111': testnet },
    defaultChain: '1',
    keys: [{ key: 'demo-key', name: 'demo', plan: { name: 'pro', requestsPerSecond: 50, credits: 1_000_000, creditPeriod: 'month' } }],
    log: false,
  });
  const { url } = await server.listen(port);
  return { server, url };
}

/** Start, make a few requests, stop: what the test suite runs. */
export async function standaloneServer(): Promise<Record<string, number>> {
  const { server, url } = await startStandaloneServer();
  try {
    const status = async (path: string, headers: Record<string, string> = {}) => (await fetch(url + path, { headers })).status;
    return {
      health: await status('/health'),
      ready: await status('/ready'),
      instance: await status('/api/v2/blocks'),
      multichainWithKey: await status('/11155111/api/v2/blocks', { authorization: 'Bearer demo-key' }),
      multichainWithoutKey: await status('/11155111/api/v2/blocks'),
    };
  } finally {
    await server.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { server, url } = await startStandaloneServer(3000);
  console.log(`listening on ${url}: try ${url}/api/v2/blocks and ${url}/11155111/api/v2/blocks?apikey=demo-key`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
