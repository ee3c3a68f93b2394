/**
 * A node without call traces (capabilities say so): the indexer still keeps the code of every
 * contract a transaction created — runtime code from `eth_getCode` at the creation block, init
 * code from the input — and raw-trace answers as Blockscout does when its node cannot trace.
 */
import t from 'tap';
import { createPublicClient, http } from 'viem';
import type { Hash } from '../../lib/domain/records.ts';
import { createExplorer, hash, toJson } from '../../lib/index.ts';
import { createIndexer } from '../../lib/indexer/index.ts';
import { createRpcChainSource } from '../../adapters/rpc/index.ts';
import { createMemoryStore } from '../../adapters/memory/index.ts';
import { startAnvil } from '../../demo/anvil.ts';
import { runScenario } from '../../demo/scenario.ts';

const lcHash = (h: string): Hash => hash(h.toLowerCase());

t.test('no call traces: contract code from eth_getCode, raw-trace → Blockscout\'s 500', async (t) => {
  const anvil = await startAnvil();
  t.teardown(() => anvil.stop());
  const facts = await runScenario(anvil.url);
  const rpc = createRpcChainSource(anvil.url, { retry: { retries: 2, baseDelayMs: 50 } });
  const source = { ...rpc, capabilities: async () => ({ ...(await rpc.capabilities()), traces: false }) };
  const store = createMemoryStore();
  await createIndexer({ source, sink: store, batchSize: 10, concurrency: 4, pollIntervalMs: 100, log: () => undefined }).run();
  const client = createPublicClient({ transport: http(anvil.url) });
  const api = createExplorer({ chains: { '1': store } });
  const get = async (path: string) => {
    const r = await api.handle({ path: `/api/v2${path}` });
    return { status: r.status, body: JSON.parse(toJson(r.body)) as Record<string, unknown> };
  };

  for (const [address, deploy] of [
    [facts.contracts.token, facts.txs.deployToken],
    [facts.contracts.nft, facts.txs.deployNft],
    [facts.contracts.factory, facts.txs.deployFactory],
  ] as const) {
    const detail = await get(`/smart-contracts/${address}`);
    t.equal(detail.status, 200, `${address}: seen created`);
    t.equal(detail.body['deployed_bytecode'], ((await client.getCode({ address })) ?? '0x').toLowerCase(), `${address}: deployed bytecode = eth_getCode`);
    t.equal(detail.body['creation_bytecode'], (await client.getTransaction({ hash: deploy })).input.toLowerCase(), `${address}: init code = the input`);
  }
  // without traces a factory's creations are not seen (nothing names them)
  t.equal((await get(`/smart-contracts/${facts.contracts.created2Token}`)).status, 404, 'a factory creation is unseen');
  t.same(await store.getTransactionTrace(lcHash(facts.txs.deployToken)), [], 'no frames kept');
  t.same(await get(`/transactions/${facts.txs.ethTransfer}/raw-trace`), { status: 404, body: { message: 'Raw trace not available: the indexer kept no trace of this transaction (its node served no traces)' } }, 'raw-trace: 404, the store holds no trace (Blockscout: 500)');
});
