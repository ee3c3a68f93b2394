/**
 * The JSON-RPC entry of the explorer without HTTP: a store that fails, a node that is down, an
 * unknown chain, and the fixture chain's answers (no node needed).
 */
import t from 'tap';
import { createExplorer } from '../../lib/index.ts';
import type { DataSource, FailedRequest } from '../../lib/index.ts';
import { createRpcNode } from '../../adapters/rpc/index.ts';
import { fixtureChains } from '../host/helpers.ts';

const { chain1 } = await fixtureChains();

type One = { id: unknown; result?: unknown; error?: { code: number; message: string } };
const call = (method: string, params: unknown[] = [], id: number | string = 1) => ({ jsonrpc: '2.0', id, method, params });

t.test('a store that fails: -32603 for its call, the cause to onError, the rest of the batch answers', async (t) => {
  const failing: DataSource = {
    ...chain1,
    getHighestBlockNumber: () => Promise.reject(new Error('disk on fire')),
  };
  const seen: [unknown, FailedRequest][] = [];
  const explorer = createExplorer({ chains: { '5': failing }, onError: (e, r) => seen.push([e, r]) });
  const reply = await explorer.rpc?.({ chainId: '5', body: [call('eth_blockNumber', [], 1), call('eth_chainId', [], 2)] });
  t.equal(reply?.status, 200);
  const [a, b] = reply?.body as One[];
  t.equal(a?.error?.code, -32603);
  t.same(b?.result, '0x5');
  t.equal(seen.length, 1);
  t.same(seen[0]?.[1], { endpoint: 'ethRpc', chainId: '5' });
});

t.test('a node that does not answer: -32000, never a throw', async (t) => {
  const explorer = createExplorer({ chains: { '1': { store: chain1, node: createRpcNode('http://127.0.0.1:9', { timeoutMs: 2000 }) } } });
  const reply = await explorer.rpc?.({ chainId: '1', body: call('eth_call', [{ to: `0x${'11'.repeat(20)}` }, 'latest']) });
  const one = reply?.body as One;
  t.equal(one.error?.code, -32000);
  t.match(one.error?.message, /did not answer/);
});

t.test('an unknown chain is 404; the fixture chain answers', async (t) => {
  const explorer = createExplorer({ chains: { '1': chain1 } });
  t.equal((await explorer.rpc?.({ chainId: '2', body: call('eth_chainId') }))?.status, 404);
  const head = await chain1.getHighestBlockNumber();
  const reply = await explorer.rpc?.({ chainId: '1', body: [call('eth_blockNumber'), call('eth_getBlockByNumber', ['latest', false], 2)] });
  const [n, block] = reply?.body as One[];
  t.equal(n?.result, `0x${(head ?? 0).toString(16)}`);
  t.equal((block?.result as { number: string }).number, `0x${(head ?? 0).toString(16)}`);
  const logs = await explorer.rpc?.({ chainId: '1', body: call('eth_getLogs', [{ fromBlock: 'earliest', toBlock: 'latest' }]) });
  t.ok(Array.isArray((logs?.body as One).result), 'eth_getLogs over the whole fixture chain');
});
