import { createExplorer, toJson } from '../lib/index.ts';
import { createMemoryStore } from '../adapters/memory/index.ts';
import { loadFixtureChain } from '../fixture/index.ts';
const store = createMemoryStore();
const { facts } = await loadFixtureChain(store);
const ex = createExplorer({ chains: { '1': { store } } });
const get = async (p: string, q: Record<string, string> = {}) => JSON.parse(toJson((await ex.handle({ path: `/api/v2${p}`, query: q })).body)) as any;
console.log(JSON.stringify(await get(`/transactions/${facts.transactions.failedInternalCall}`), null, 0).slice(0, 600));
