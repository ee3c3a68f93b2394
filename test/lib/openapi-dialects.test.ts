/**
 * Our OpenAPI document beyond the API v2: one operation per Etherscan-compatible action (path
 * key `/api?module=…&action=…`, generated from lib/etherscan's registry), the JSON-RPC endpoint
 * (its methods from lib/rpc's), the gateway's config; the multichain twins under one tag; and
 * "Try it out" examples that are values of the served store (none for an empty store).
 */
import t from 'tap';
import SwaggerParser from '@apidevtools/swagger-parser';
import { createMemoryStore } from '../../adapters/memory/index.ts';
import { loadFixtureChain } from '../../fixture/index.ts';
import { createExplorer, openApiDocument, readStoreExamples, RPC_METHODS } from '../../lib/index.ts';
import { ETHERSCAN_ACTIONS } from '../../lib/etherscan/index.ts';
import { storeFactories } from '../support/stores.ts';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };
interface Parameter {
  readonly name: string;
  readonly in: string;
  readonly example?: string;
  readonly examples?: Record<string, { value: string }>;
}

const doc = openApiDocument({ chainIds: ['1', '5'] }) as Obj;
/** the fixture chain in a memory store, loaded once */
const store = createMemoryStore();
await loadFixtureChain(store);
const paths = doc.paths as Obj;
const isV2 = (p: string): boolean => /^(\/\{chain_id\})?\/api\/v[12]\//.test(p);
const etherscanKeys = Object.keys(paths).filter((p) => p.startsWith('/api?'));
const op = (d: Obj, p: string, method = 'get'): Obj => ((d.paths as Obj)[p] as Obj)[method] as Obj;
const params = (o: Obj): Parameter[] => (o.parameters as unknown as Parameter[] | undefined) ?? [];

t.test('the Etherscan actions: one operation each, from the registry', async (t) => {
  t.equal(etherscanKeys.length, ETHERSCAN_ACTIONS.length, `${ETHERSCAN_ACTIONS.length} actions, ${etherscanKeys.length} operations`);
  for (const a of ETHERSCAN_ACTIONS) {
    const key = `/api?module=${a.module}&action=${a.action}`;
    const o = op(doc, key);
    t.equal(o.operationId, `etherscan_${a.module}_${a.action}`, key);
    t.same(o.tags, [`Etherscan: ${a.module}`], `${key}: its module's tag`);
    t.same(
      params(o).map((p) => p.name),
      [...a.params.map((p) => p.name), 'apikey'],
      `${key}: the action's parameters`,
    );
    t.ok(((o.responses as Obj)['200'] as Obj).content, `${key}: documents its 200`);
  }
  const ids = Object.values(paths).flatMap((item) => Object.values(item as Obj).map((o) => (o as Obj).operationId));
  t.equal(new Set(ids).size, ids.length, 'operationIds are unique');
  t.same(
    Object.keys(paths).filter((p) => !isV2(p) && !p.startsWith('/api?')).sort(),
    ['/api/eth-rpc', '/api/json/config'],
    'beside the API v2 and the Etherscan actions: the JSON-RPC endpoint and the config',
  );
});

t.test('the JSON-RPC endpoint and the config', async (t) => {
  const rpc = op(doc, '/api/eth-rpc', 'post');
  t.equal(rpc.operationId, 'jsonRpc');
  t.same(rpc.tags, ['JSON-RPC']);
  const schemas = (doc.components as Obj).schemas as Obj;
  const method = ((schemas.JsonRpcRequest as Obj).properties as Obj).method as Obj;
  t.same(method.enum, Object.keys(RPC_METHODS), 'the request lists every method served');
  const body = ((rpc.requestBody as Obj).content as Obj)['application/json'] as Obj;
  t.same(((body.examples as Obj).eth_blockNumber as Obj).value, { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }, 'a body to try');
  t.same(op(doc, '/api/json/config').tags, ['gateway']);
});

t.test('the multichain twins under one tag; the tags listed once, in order', async (t) => {
  for (const [p, item] of Object.entries(paths)) {
    const tags = (item as Obj).get === undefined ? ((item as Obj).post as Obj).tags : ((item as Obj).get as Obj).tags;
    if (p.startsWith('/{chain_id}')) t.same(tags, ['multichain'], p);
    else t.notSame(tags, ['multichain'], p);
  }
  const names = (doc.tags as Obj[]).map((x) => x.name as string);
  t.equal(new Set(names).size, names.length, 'unique');
  t.same(names.slice(-3), ['JSON-RPC', 'gateway', 'multichain'], 'the multichain twins last');
  const used = new Set(Object.values(paths).flatMap((item) => Object.values(item as Obj).flatMap((o) => (o as Obj).tags as string[])));
  t.same([...used].sort(), [...names].sort(), 'every tag used is listed, and only those');
});

t.test('examples from the store: real values; an empty store gives none', async (t) => {
  const ex = await readStoreExamples(store, '1');
  const head = await store.getHighestBlockNumber();
  const block = await store.getBlock({ number: head ?? -1 });
  t.equal(ex.blockNumber, head, 'the head block');
  t.equal(ex.blockHash, block?.hash);
  const tx = await store.getTransaction(ex.transaction as never);
  t.equal(tx?.hash, ex.transaction, 'a stored transaction');
  t.equal(ex.address, tx?.from, 'its sender: an address with activity');
  t.ok(await store.getToken(ex.token as never), 'a stored token');
  const nft = (await store.getTokenInstances([{ tokenAddress: ex.nftToken as never, tokenId: BigInt(ex.tokenId ?? -1) }]))[0] ?? null;
  t.ok(nft, 'a stored NFT instance (token and id)');
  t.ok((await store.getContracts([ex.contract as never])).length === 1, 'a stored contract');

  const withEx = openApiDocument({ chainIds: ['1', '5'], examples: ex }) as Obj;
  await t.resolves(SwaggerParser.validate(structuredClone(withEx) as never), 'still valid');
  const exampleOf = (p: string, name: string, method = 'get'): string | undefined => params(op(withEx, p, method)).find((x) => x.name === name)?.example;
  t.equal(exampleOf('/api/v2/transactions/{transaction_hash_param}', 'transaction_hash_param'), ex.transaction);
  t.equal(exampleOf('/api/v2/addresses/{address_hash_param}', 'address_hash_param'), ex.address);
  t.equal(exampleOf('/api/v2/tokens/{address_hash_param}', 'address_hash_param'), ex.token);
  t.equal(exampleOf('/api/v2/tokens/{address_hash_param}/instances/{token_id_param}', 'address_hash_param'), ex.nftToken);
  t.equal(exampleOf('/api/v2/tokens/{address_hash_param}/instances/{token_id_param}', 'token_id_param'), ex.tokenId);
  t.equal(exampleOf('/{chain_id}/api/v2/transactions/{transaction_hash_param}', 'chain_id'), '1', 'the twin: the chain asked for');
  t.equal(exampleOf('/{chain_id}/api/v2/transactions/{transaction_hash_param}', 'transaction_hash_param'), ex.transaction);
  const blockParam = params(op(withEx, '/api/v2/blocks/{block_hash_or_number_param}')).find((x) => x.name === 'block_hash_or_number_param');
  t.same(Object.values(blockParam?.examples ?? {}).map((e) => e.value), [String(head), block?.hash], 'a block by number and by hash');
  t.equal(exampleOf('/api?module=account&action=balance', 'address'), ex.address);
  t.equal(exampleOf('/api?module=transaction&action=gettxinfo', 'txhash'), ex.transaction);
  t.equal(exampleOf('/api?module=token&action=gettoken', 'contractaddress'), ex.token);
  t.equal(exampleOf('/api?module=block&action=getblockreward', 'blockno'), String(head));
  t.equal(exampleOf('/api?module=block&action=getblocknobytime', 'timestamp'), String(block?.timestamp));
  t.equal(exampleOf('/api?module=proxy&action=eth_getblockbynumber', 'tag'), `0x${(head ?? 0).toString(16)}`);
  t.equal(exampleOf('/api?module=account&action=txlist', 'page'), undefined, 'paging is left alone');
  const rpcBodies = (((op(withEx, '/api/eth-rpc', 'post').requestBody as Obj).content as Obj)['application/json'] as Obj).examples as Obj;
  t.same((rpcBodies.eth_getTransactionByHash as Obj).value, { jsonrpc: '2.0', id: 1, method: 'eth_getTransactionByHash', params: [ex.transaction as string] });
  t.same(((doc.paths as Obj)['/api/v2/transactions/{transaction_hash_param}'] as Obj).get, op(openApiDocument({ chainIds: ['1', '5'] }) as Obj, '/api/v2/transactions/{transaction_hash_param}'), 'the document without examples is untouched');

  t.same(await readStoreExamples(createMemoryStore(), '1'), {}, 'an empty store: no values');
  t.same(openApiDocument({ chainIds: ['1', '5'], examples: {} }), doc, 'and the document without examples');

  // served: the asked chain's store, read when the document is asked for
  const explorer = createExplorer({ chains: { '1': store, '5': createMemoryStore() } });
  const served = (await explorer.handle({ path: '/api/v2/openapi.json' })).body as Obj;
  t.same(served, openApiDocument({ chainIds: ['1', '5'], examples: ex }), 'GET /api/v2/openapi.json: the default chain\'s values');
  const empty = (await explorer.handle({ path: '/5/api/v2/openapi.json' })).body as Obj;
  t.same(empty, doc, 'GET /5/api/v2/openapi.json: chain 5 is empty, no examples');
});

t.test('the same examples from every store (SCOUTKIT_STORES)', async (t) => {
  const expected = await readStoreExamples(store, '1');
  for (const factory of await storeFactories()) {
    if (factory.name === 'memory') continue;
    const other = await factory.open();
    t.teardown(() => other.close());
    t.same(await readStoreExamples(other, '1'), {}, `${factory.name}: empty, none`);
    await loadFixtureChain(other);
    t.same(await readStoreExamples(other, '1'), expected, `${factory.name}: the fixture's`);
  }
});
