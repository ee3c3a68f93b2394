/**
 * The JSON-RPC subset against a real node: the demo scenario on anvil, indexed into memory and
 * SQLite, served; viem's public client over `/api/eth-rpc` agrees with the same client on the
 * node for every method (eth_call and the other state reads forwarded), and the raw answers
 * agree key by key (every key we send holds the node's value). Then batches, error codes,
 * bounds, keys/limits/402 in the multichain form, and `/api/json/config`.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import t from 'tap';
import type { Test } from 'tap';
import { createPublicClient, http, parseAbi } from 'viem';
import type { PublicClient } from 'viem';
import { startAnvil } from '../../demo/anvil.ts';
import type { Anvil } from '../../demo/anvil.ts';
import { runScenario } from '../../demo/scenario.ts';
import type { ScenarioFacts } from '../../demo/scenario.ts';
import { createRpcNode } from '../../adapters/rpc/index.ts';
import { createServer } from '../../host/index.ts';
import { LOCAL_PLAN } from '../../host/index.ts';
import type { Plan } from '../../host/index.ts';
import { MAX_BATCH_SIZE } from '../../lib/index.ts';
import { storeFactories } from '../support/stores.ts';
import type { TestStore } from '../support/stores.ts';
import { scoutkitBin } from '../support/scoutkitBin.ts';
import { indexerFor, rpc as nodeRpc } from '../indexer/helpers.ts';
import { limitHeaders, request } from './helpers.ts';

const ABI = parseAbi(['function balanceOf(address) view returns (uint256)', 'function fail() view', 'function name() view returns (string)']);
const CHAIN = '31337';
const POOR: Plan = { name: 'poor', requestsPerSecond: 100, credits: 4, creditPeriod: 'month' };
const BIG: Plan = { name: 'big', requestsPerSecond: 1000, credits: 1_000_000, creditPeriod: 'month' };
const keys = [
  { key: 'k-poor', plan: POOR },
  { key: 'k-big', plan: BIG },
];

let anvil: Anvil;
let facts: ScenarioFacts;
let node: PublicClient;
t.before(async () => {
  anvil = await startAnvil();
  facts = await runScenario(anvil.url, { rounds: 1 });
  node = createPublicClient({ transport: http(anvil.url) });
});
t.teardown(async () => {
  await anvil?.stop();
});

async function served(t: Test, store: TestStore, withNode: boolean) {
  const server = createServer({
    chains: { [CHAIN]: withNode ? { store, node: createRpcNode(anvil.url) } : store },
    keys,
    anonymousPlan: LOCAL_PLAN,
    log: false,
    docs: false,
    metrics: false,
  });
  const { url } = await server.listen(0);
  t.teardown(() => server.close());
  return url;
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

let nextId = 0;
/** One raw call to our endpoint; the JSON-RPC response object. */
async function ours(url: string, method: string, params: readonly unknown[]): Promise<{ result?: unknown; error?: { code: number; message: string; data?: unknown } }> {
  const reply = await post(`${url}/api/eth-rpc`, { jsonrpc: '2.0', id: ++nextId, method, params });
  return reply.json as { result?: unknown; error?: { code: number; message: string } };
}

/** Every key we render holds the node's value (recursively for nested objects and lists of them). */
function sameWhereRendered(t: Test, got: unknown, want: unknown, what: string): number {
  if (got === null || typeof got !== 'object') {
    t.same(got, want, what);
    return 1;
  }
  if (Array.isArray(got)) {
    t.equal(got.length, Array.isArray(want) ? want.length : -1, `${what}: length`);
    return got.reduce((n: number, g, i) => n + sameWhereRendered(t, g, (want as unknown[])[i], `${what}[${i}]`), 1);
  }
  let n = 0;
  for (const [k, v] of Object.entries(got)) n += sameWhereRendered(t, v, (want as Record<string, unknown>)?.[k], `${what}.${k}`);
  return n;
}

t.test('the store answers as the node does', async (t) => {
  for (const factory of await storeFactories()) {
    await t.test(factory.name, async (t) => {
      const store = await factory.open();
      t.teardown(() => store.close());
      await indexerFor(anvil.url, store).run();
      const url = await served(t, store, true);
      const client = createPublicClient({ transport: http(`${url}/api/eth-rpc`) });

      t.equal(await client.getBlockNumber(), await node.getBlockNumber(), 'eth_blockNumber');
      t.equal(await client.getChainId(), await node.getChainId(), 'eth_chainId');
      t.equal(await client.getGasPrice(), await node.getGasPrice(), 'eth_gasPrice');
      for (const who of [...Object.values(facts.accounts), ...Object.values(facts.contracts)]) {
        t.equal(await client.getBalance({ address: who }), await node.getBalance({ address: who }), `eth_getBalance ${who}`);
      }
      const head = await node.getBlockNumber();
      t.equal(await client.getBalance({ address: facts.accounts.alice, blockNumber: 1n }), await node.getBalance({ address: facts.accounts.alice, blockNumber: 1n }), 'an old balance: forwarded');

      let compared = 0;
      for (const hash of facts.allTxs) {
        const [a, b] = await Promise.all([ours(url, 'eth_getTransactionByHash', [hash]), nodeRpc(anvil.url, 'eth_getTransactionByHash', [hash])]);
        compared += sameWhereRendered(t, a.result, b, `tx ${hash}`);
        const [c, d] = await Promise.all([ours(url, 'eth_getTransactionReceipt', [hash]), nodeRpc(anvil.url, 'eth_getTransactionReceipt', [hash])]);
        compared += sameWhereRendered(t, c.result, d, `receipt ${hash}`);
        const [vt, nt] = await Promise.all([client.getTransaction({ hash }), node.getTransaction({ hash })]);
        for (const k of ['hash', 'blockHash', 'blockNumber', 'from', 'to', 'value', 'gas', 'gasPrice', 'nonce', 'input', 'type', 'maxFeePerGas', 'maxPriorityFeePerGas', 'transactionIndex'] as const) {
          t.same(vt[k], nt[k], `viem getTransaction ${k}`);
        }
        const [vr, nr] = await Promise.all([client.getTransactionReceipt({ hash }), node.getTransactionReceipt({ hash })]);
        const { blobGasPrice: _b, ...expected } = nr as typeof nr & { blobGasPrice?: bigint; blockTimestamp?: unknown };
        const { blockTimestamp: _t, ...want } = expected as typeof expected & { blockTimestamp?: unknown };
        t.same(vr, want, `viem getTransactionReceipt ${hash}`);
      }
      for (let n = 0n; n <= head; n++) {
        for (const full of [false, true]) {
          const [a, b] = await Promise.all([ours(url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, full]), nodeRpc(anvil.url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, full])]);
          compared += sameWhereRendered(t, a.result, b, `block ${n} full=${full}`);
          const hash = (b as { hash: string }).hash;
          const c = await ours(url, 'eth_getBlockByHash', [hash, full]);
          t.same(c.result, a.result, `block ${n} by hash`);
        }
        const [vb, nb] = await Promise.all([client.getBlock({ blockNumber: n }), node.getBlock({ blockNumber: n })]);
        for (const k of ['hash', 'number', 'parentHash', 'timestamp', 'gasLimit', 'gasUsed', 'baseFeePerGas', 'miner', 'stateRoot', 'sha3Uncles', 'transactions', 'size', 'nonce', 'extraData'] as const) {
          t.same(vb[k], nb[k], `viem getBlock ${n} ${k}`);
        }
      }
      // what a wallet asks before sending: nonces at every stored block (from the store), fees
      const people = [...Object.values(facts.accounts), ...Object.values(facts.contracts)];
      for (let n = 0n; n <= head; n++) {
        for (const who of people) {
          const at = `0x${n.toString(16)}`;
          const [a, b] = await Promise.all([ours(url, 'eth_getTransactionCount', [who, at]), nodeRpc(anvil.url, 'eth_getTransactionCount', [who, at])]);
          t.equal(a.result, b, `eth_getTransactionCount ${who} at ${at}`);
        }
      }
      for (const blockTag of ['pending', 'latest'] as const) {
        t.equal(await client.getTransactionCount({ address: facts.accounts.alice, blockTag }), await node.getTransactionCount({ address: facts.accounts.alice, blockTag }), `eth_getTransactionCount ${blockTag}`);
      }
      t.equal(await client.estimateMaxPriorityFeePerGas(), await node.estimateMaxPriorityFeePerGas(), 'eth_maxPriorityFeePerGas');
      for (const params of [['0x5', 'latest', [10, 50, 90]], [`0x${(head + 1n).toString(16)}`, 'latest', [0, 25, 50, 75, 100]], ['0x3', `0x${(head - 2n).toString(16)}`], ['0x400', 'earliest', [1]]]) {
        const [a, b] = await Promise.all([ours(url, 'eth_feeHistory', params), nodeRpc(anvil.url, 'eth_feeHistory', params)]);
        const fees = (b as { baseFeePerGas: string[] }).baseFeePerGas;
        const newest = BigInt((b as { oldestBlock: string }).oldestBlock) + BigInt(fees.length) - 2n;
        // anvil ends the list with its pending block's base fee whatever the newest block; geth (and we) with the block after the newest
        if (newest < head) fees[fees.length - 1] = (await node.getBlock({ blockNumber: newest + 1n })).baseFeePerGas?.toString(16).replace(/^/, '0x') ?? '';
        compared += sameWhereRendered(t, a.result, b, `eth_feeHistory ${JSON.stringify(params)}`);
      }
      t.same(await client.getFeeHistory({ blockCount: 4, rewardPercentiles: [20, 80] }), await node.getFeeHistory({ blockCount: 4, rewardPercentiles: [20, 80] }).then(({ baseFeePerBlobGas: _b, blobGasUsedRatio: _r, ...rest }: Record<string, unknown>) => rest), 'viem getFeeHistory');
      t.equal((await ours(url, 'net_version', [])).result, await nodeRpc(anvil.url, 'net_version', []), 'net_version');
      t.match((await ours(url, 'web3_clientVersion', [])).result, /^scoutkit\/v\d+\.\d+\.\d+/, 'web3_clientVersion names us');
      t.ok(compared > 1000, `${compared} rendered values compared with the node's`);
      t.same(await client.getBlock({ blockTag: 'latest' }).then((b) => b.hash), (await node.getBlock({ blockTag: 'latest' })).hash, 'latest block');
      t.equal(await client.getBlock({ blockNumber: head + 10n }).catch((e: Error) => e.name), 'BlockNotFoundError', 'a block above the head: null');
      t.equal(await client.getTransaction({ hash: `0x${'12'.repeat(32)}` }).catch((e: Error) => e.name), 'TransactionNotFoundError', 'an unknown transaction: null');

      // logs: everything, by emitter, by topics, by block hash
      const logQueries = [
        { fromBlock: 0n, toBlock: head },
        { address: facts.contracts.token, fromBlock: 0n, toBlock: 'latest' as const },
        { address: [facts.contracts.nft, facts.contracts.multi], fromBlock: 0n },
      ];
      for (const q of logQueries) {
        const [a, b] = await Promise.all([client.getLogs(q), node.getLogs(q)]);
        t.ok(b.length > 0, `the node has logs for ${JSON.stringify(q, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`);
        t.same(a, b, 'eth_getLogs agrees');
      }
      const transfer = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
      const aliceTopic = `0x${facts.accounts.alice.slice(2).toLowerCase().padStart(64, '0')}`;
      for (const topics of [[transfer], [transfer, null, aliceTopic], [[transfer, `0x${'00'.repeat(32)}`], null, null]]) {
        const filter = { fromBlock: '0x0', toBlock: 'latest', topics };
        const [a, b] = await Promise.all([ours(url, 'eth_getLogs', [filter]), nodeRpc(anvil.url, 'eth_getLogs', [filter])]);
        t.ok((b as unknown[]).length > 0, 'the node has logs for these topics');
        t.same(a.result, b, `eth_getLogs by topics ${JSON.stringify(topics)}`);
      }
      const receipt = await node.getTransactionReceipt({ hash: facts.txs.multiTransferBatch });
      t.same(await client.getLogs({ blockHash: receipt.blockHash }), await node.getLogs({ blockHash: receipt.blockHash }), 'eth_getLogs by blockHash');

      // forwarded state reads
      const read = { address: facts.contracts.token, abi: ABI, functionName: 'balanceOf', args: [facts.accounts.alice] } as const;
      t.equal(await client.readContract(read), await node.readContract(read), 'eth_call forwarded');
      t.equal(await client.getCode({ address: facts.contracts.token }), await node.getCode({ address: facts.contracts.token }), 'eth_getCode');
      t.equal(await client.getStorageAt({ address: facts.contracts.token, slot: '0x2' }), await node.getStorageAt({ address: facts.contracts.token, slot: '0x2' }), 'eth_getStorageAt');
      const gas = { account: facts.accounts.alice, to: facts.accounts.bob, value: 1n } as const;
      t.equal(await client.estimateGas(gas), await node.estimateGas(gas), 'eth_estimateGas');
      const revert = { to: facts.contracts.reverter, data: '0xa9cc4718' };
      const [ra, rb] = await Promise.all([ours(url, 'eth_call', [revert, 'latest']), nodeRpc(anvil.url, 'eth_call', [revert, 'latest']).catch((e: Error) => e.message)]);
      t.equal(ra.error?.code, 3, 'a revert keeps the node code');
      t.match(rb, ra.error?.message ?? '-', 'and its message');
      t.match(ra.error?.data, /^0x08c379a0/, 'and its revert data');
      t.equal(await client.readContract({ address: facts.contracts.reverter, abi: ABI, functionName: 'fail' }).catch((e: Error) => e.name), 'ContractFunctionExecutionError', 'viem decodes the forwarded revert');
      const bad = await ours(url, 'eth_sendRawTransaction', ['0x1234']);
      const nodeBad = await fetch(anvil.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: ['0x1234'] }) }).then((r) => r.json() as Promise<{ error: unknown }>);
      t.same(bad.error, nodeBad.error, 'eth_sendRawTransaction: the node error as is');

      // a batch through viem's own batching transport
      const batched = createPublicClient({ transport: http(`${url}/api/eth-rpc`, { batch: true }) });
      const [bn, cid, bal] = await Promise.all([batched.getBlockNumber(), batched.getChainId(), batched.getBalance({ address: facts.accounts.bob })]);
      t.same([bn, cid, bal], [head, Number(CHAIN), await node.getBalance({ address: facts.accounts.bob })], 'a viem batch');
    });
  }
});

t.test('envelope, errors and bounds', async (t) => {
  const [factory] = await storeFactories();
  const store = await (factory as NonNullable<typeof factory>).open();
  t.teardown(() => store.close());
  await indexerFor(anvil.url, store).run();
  const url = await served(t, store, false);
  const at = `${url}/api/eth-rpc`;
  const codeOf = (json: unknown) => (json as { error?: { code: number } }).error?.code;

  const cases: [string, unknown, number][] = [
    ['bad JSON', '{"jsonrpc":', -32700],
    ['empty body', '', -32700],
    ['empty batch', [], -32600],
    ['not an object', 7, -32600],
    ['no method', { jsonrpc: '2.0', id: 1 }, -32600],
    ['wrong version', { jsonrpc: '1.0', id: 1, method: 'eth_chainId' }, -32600],
    ['unknown method', { jsonrpc: '2.0', id: 1, method: 'eth_mine', params: [] }, -32601],
    ['params by name', { jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: { address: '0x' } }, -32602],
    ['bad address', { jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: ['0x12', 'latest'] }, -32602],
    ['bad block', { jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: ['nope', false] }, -32602],
    ['bad flag', { jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: ['0x1', 'yes'] }, -32602],
    ['bad hash', { jsonrpc: '2.0', id: 1, method: 'eth_getTransactionByHash', params: ['0x12'] }, -32602],
    ['bad topics', { jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [{ topics: ['0x1'] }] }, -32602],
    ['range reversed', { jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [{ fromBlock: '0x5', toBlock: '0x1' }] }, -32602],
    ['range too large', { jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: '0xf4240' }] }, -32005],
    ['unknown block hash', { jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [{ blockHash: `0x${'11'.repeat(32)}` }] }, -32000],
    ['no node: eth_call', { jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: facts.contracts.token, data: '0x06fdde03' }, 'latest'] }, -32000],
    ['no node: old balance', { jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [facts.accounts.alice, '0x1'] }, -32000],
    ['too long a batch', Array.from({ length: MAX_BATCH_SIZE + 1 }, (_v, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_chainId' })), -32600],
  ];
  for (const [what, body, code] of cases) {
    const reply = await post(at, body);
    t.equal(reply.status, 200, `${what}: HTTP 200`);
    t.equal(codeOf(reply.json), code, `${what}: ${code}`);
  }
  // without a node: nonces from the store (its head is `latest`), `pending` a clear error
  const storeHead = `0x${(await node.getBlockNumber()).toString(16)}`;
  for (const who of Object.values(facts.accounts)) {
    for (const tag of [storeHead, 'latest', 'earliest']) {
      const mine = (await post(at, { jsonrpc: '2.0', id: 1, method: 'eth_getTransactionCount', params: [who, tag] })).json as { result: string };
      t.equal(mine.result, await nodeRpc(anvil.url, 'eth_getTransactionCount', [who, tag]), `no node: eth_getTransactionCount ${who} ${tag} from the store`);
    }
  }
  const pending = (await post(at, { jsonrpc: '2.0', id: 1, method: 'eth_getTransactionCount', params: [facts.accounts.alice, 'pending'] })).json as { error: { code: number; message: string } };
  t.same([pending.error.code, /eth_getTransactionCount: no node is configured/.test(pending.error.message)], [-32000, true], 'no node: a pending nonce is an error saying why');
  const contractNonce = (await post(at, { jsonrpc: '2.0', id: 1, method: 'eth_getTransactionCount', params: [facts.contracts.token, storeHead] })).json as { error: { code: number } };
  t.equal(contractNonce.error.code, -32000, "no node: a contract's nonce (its creations) is not the store's to say");
  const beyond = (await post(at, { jsonrpc: '2.0', id: 1, method: 'eth_feeHistory', params: ['0x2', '0xffff'] })).json as { error: { code: number; message: string } };
  t.same([beyond.error.code, beyond.error.message], [-32000, `request beyond head block: requested 65535, head ${Number(storeHead)}`], 'eth_feeHistory beyond the head: as geth says it');
  for (const [what, params] of [
    ['unordered percentiles', ['0x2', 'latest', [50, 10]]],
    ['a percentile above 100', ['0x2', 'latest', [101]]],
    ['a bad count', ['two', 'latest']],
    ['no newest block', ['0x2']],
  ] as const) {
    t.equal(codeOf((await post(at, { jsonrpc: '2.0', id: 1, method: 'eth_feeHistory', params })).json), -32602, `eth_feeHistory ${what}: -32602`);
  }
  t.same((await post(at, { jsonrpc: '2.0', id: 1, method: 'net_version' })).json, { jsonrpc: '2.0', id: 1, result: CHAIN }, 'net_version: the chain id in decimal');
  t.same((await post(at, { jsonrpc: '2.0', id: 1, method: 'eth_accounts' })).json, { jsonrpc: '2.0', id: 1, result: [] }, 'eth_accounts: none');
  const noNode = await post(at, { jsonrpc: '2.0', id: 9, method: 'eth_getCode', params: [facts.contracts.token, 'latest'] });
  t.match((noNode.json as { error: { message: string } }).error.message, /no node is configured/, 'says no node is configured');

  const batch = await post(at, [
    { jsonrpc: '2.0', id: 'a', method: 'eth_chainId' },
    { jsonrpc: '2.0', id: 2, method: 'eth_nope' },
    { jsonrpc: '2.0', id: 3, method: 'eth_blockNumber', params: [] },
    5,
  ]);
  const items = batch.json as { id: unknown; result?: unknown; error?: { code: number } }[];
  t.same(items.map((i) => i.id), ['a', 2, 3, null], 'a batch answers in order, ids kept');
  t.same([items[0]?.result, items[1]?.error?.code, items[2]?.result, items[3]?.error?.code], [`0x${Number(CHAIN).toString(16)}`, -32601, `0x${(await node.getBlockNumber()).toString(16)}`, -32600]);

  const huge = await post(at, `[${'1,'.repeat(600_000)}1]`);
  t.equal(huge.status, 413, 'a body over 1 MiB: 413');
  t.equal(codeOf(huge.json), -32600);
  const get = await request(at);
  t.equal(get.status, 405, 'GET: 405');
  t.equal(get.headers.get('allow'), 'POST');
});

t.test('keys, limits and credits in the multichain form; the config', async (t) => {
  const [factory] = await storeFactories();
  const store = await (factory as NonNullable<typeof factory>).open();
  t.teardown(() => store.close());
  const url = await served(t, store, false);
  const call = { jsonrpc: '2.0', id: 1, method: 'eth_chainId' };

  const anonymous = await post(`${url}/${CHAIN}/json-rpc`, call);
  t.equal(anonymous.status, 401, 'no key: 401');
  t.equal(limitHeaders(anonymous).limit > 0, true, 'with the limit headers');
  const unknownChain = await post(`${url}/5/json-rpc`, call, { authorization: 'Bearer k-big' });
  t.equal(unknownChain.status, 404, 'an unconfigured chain: 404');

  const poor = (body: unknown) => post(`${url}/${CHAIN}/json-rpc`, body, { 'x-api-key': 'k-poor' });
  const one = await poor(call);
  t.same([one.status, (one.json as { result: string }).result, limitHeaders(one).credits], [200, '0x7a69', 3], 'one call costs 1 credit');
  const three = await poor([call, call, call]);
  t.same([three.status, limitHeaders(three).credits], [200, 0], 'a batch of 3 costs 3');
  const out = await poor(call);
  t.equal(out.status, 402, 'out of credits: 402');
  t.same(out.json, { error: 'Out of credits' }, "the hosted gateway's body");
  t.same(limitHeaders(out).credits, 0);
  const api = await request(`${url}/${CHAIN}/api/v2/blocks?apikey=k-poor`);
  t.same([api.status, api.json], [402, { error: 'Out of credits' }], 'the multichain API v2 form too');

  const config = await request(`${url}/api/json/config`);
  t.equal(config.status, 200, 'config: no key needed');
  const body = config.json as { chains: Record<string, string>; credits: { default: number; endpoints: Record<string, number>; batch: string } };
  t.same(body.chains, { [CHAIN]: `${url}/${CHAIN}` }, 'chains → base URL from the request origin');
  t.equal(body.credits.endpoints['POST /json-rpc'], 1);
  t.equal(body.credits.endpoints['GET /api/v2/blocks'], 1);
  t.equal(body.credits.batch, 'per_call');
  t.ok(Number.isFinite(limitHeaders(config).credits), 'limited like the rest');
  const viaBase = await post(`${body.chains[CHAIN]}/json-rpc`, call, { authorization: 'Bearer k-big' });
  t.equal((viaBase.json as { result: string }).result, '0x7a69', 'the base URL serves the chain');

  const pub = createServer({ chains: { [CHAIN]: store }, publicUrl: 'https://gw.example/x', costs: { ethRpc: 3, blocks: 2 }, log: false, docs: false, metrics: false });
  const { url: pubUrl } = await pub.listen(0);
  t.teardown(() => pub.close());
  const pubConfig = (await request(`${pubUrl}/api/json/config`)).json as typeof body;
  t.same(pubConfig.chains, { [CHAIN]: `https://gw.example/x/${CHAIN}` }, '--public-url');
  t.same([pubConfig.credits.endpoints['POST /json-rpc'], pubConfig.credits.endpoints['GET /api/v2/blocks'], pubConfig.credits.endpoints['GET /api/v2/transactions']], [3, 2, 1], 'the costs charged');
});

t.test('scoutkit serve --rpc --public-url', async (t) => {
  const args = ['serve', '--db', 'memory:', '--default-chain', CHAIN, '--rpc', anvil.url, '--public-url', 'https://gw.example', '--port', '0', '--no-docs', '--no-metrics', '--log-format', 'json'];
  const child = spawn(process.execPath, [...scoutkitBin(), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      if (parsed.msg === 'listening') resolve(String(parsed.url));
    });
    child.once('exit', (code) => reject(new Error(`exited early with ${code}`)));
  });
  const client = createPublicClient({ transport: http(`${url}/api/eth-rpc`) });
  const read = { address: facts.contracts.token, abi: ABI, functionName: 'name' } as const;
  t.equal(await client.readContract(read), await node.readContract(read), 'eth_call forwarded to --rpc');
  t.equal(await client.getBlockNumber(), 0n, 'eth_blockNumber from the (empty) store');
  const config = (await request(`${url}/api/json/config`)).json as { chains: Record<string, string> };
  t.same(config.chains, { [CHAIN]: `https://gw.example/${CHAIN}` }, '--public-url in the config');
  child.kill('SIGTERM');
  const [code] = (await once(child, 'exit')) as [number];
  t.equal(code, 0, 'clean exit');
});
