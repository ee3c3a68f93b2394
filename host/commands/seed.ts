/**
 * `scoutkit seed --db <url>`: write the deterministic fixture chain (the one the tests use)
 * into a store — a developer aid for trying the API without a node.
 */
import { parseArgs } from 'node:util';
import { loadFixtureChain } from '../../fixture/index.ts';
import { openStore } from '../stores.ts';

export const SEED_HELP = `Usage: scoutkit seed --db <url>

Write the deterministic fixture chain (151 blocks, every token type, the test suite's data)
into a store, e.g. sqlite:./scoutkit.sqlite or postgres://... . Writing it twice changes nothing.`;

export async function runSeedCommand(
  args: readonly string[],
  out: { write(s: string): void } = process.stdout,
): Promise<number> {
  const { values } = parseArgs({ args: [...args], strict: true, options: { db: { type: 'string' } } });
  if (values.db === undefined) throw new Error('give --db <url>');
  const store = await openStore(values.db);
  try {
    const chain = await loadFixtureChain(store.sink);
    out.write(`seeded ${store.description}: ${chain.bundles.length} blocks, head ${chain.facts.headBlockNumber}\n`);
    return 0;
  } finally {
    await store.close();
  }
}
