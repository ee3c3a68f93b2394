/**
 * The JSON-RPC entry of the explorer without HTTP: a store that fails, a node that is down, an
 * unknown chain, and the fixture chain's answers (no node needed).
 */
import t from 'tap';
import { createExplorer } from '../../lib/index.ts';
import type { DataSource, FailedRequest } from '../../lib/index.ts';
import { createRpcNode } from '../../adapters/rpc/index.ts';
import { fixtureChains } from '../host/helpers.ts';
import type { BlockRecord, TransactionRecord } from '../../lib/domain/records.ts';
import { blockRewards } from '../../lib/rpc/methods/eth_feeHistory.ts';

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
  const reply = await explorer.rpc({ chainId: '5', body: [call('eth_blockNumber', [], 1), call('eth_chainId', [], 2)] });
  t.equal(reply.status, 200);
  const [a, b] = reply.body as One[];
  t.equal(a?.error?.code, -32603);
  t.same(b?.result, '0x5');
  t.equal(seen.length, 1);
  t.same(seen[0]?.[1], { endpoint: 'ethRpc', chainId: '5' });
});

t.test('a node that does not answer: -32000, never a throw', async (t) => {
  const explorer = createExplorer({ chains: { '1': { store: chain1, node: createRpcNode('http://127.0.0.1:9', { timeoutMs: 2000 }) } } });
  const reply = await explorer.rpc({ chainId: '1', body: call('eth_call', [{ to: `0x${'11'.repeat(20)}` }, 'latest']) });
  const one = reply.body as One;
  t.equal(one.error?.code, -32000);
  t.match(one.error?.message, /did not answer/);
});

t.test('an unknown chain is 404; the fixture chain answers', async (t) => {
  const explorer = createExplorer({ chains: { '1': chain1 } });
  t.equal((await explorer.rpc({ chainId: '2', body: call('eth_chainId') })).status, 404);
  const head = await chain1.getHighestBlockNumber();
  const reply = await explorer.rpc({ chainId: '1', body: [call('eth_blockNumber'), call('eth_getBlockByNumber', ['latest', false], 2)] });
  const [n, block] = reply.body as One[];
  t.equal(n?.result, `0x${(head ?? 0).toString(16)}`);
  t.equal((block?.result as { number: string }).number, `0x${(head ?? 0).toString(16)}`);
  const logs = await explorer.rpc({ chainId: '1', body: call('eth_getLogs', [{ fromBlock: 'earliest', toBlock: 'latest' }]) });
  t.ok(Array.isArray((logs.body as One).result), 'eth_getLogs over the whole fixture chain');
});

t.test('a wallet against the fixture chain without a node: nonces and fees from the store, pending refused', async (t) => {
  const explorer = createExplorer({ chains: { '1': chain1 } });
  const head = (await chain1.getHighestBlockNumber()) ?? 0;
  const [last] = await chain1.listTransactions({ status: 'validated' }, { after: null, limit: 1, order: 'desc' });
  const sender = last?.from ?? '0x';
  const reply = await explorer.rpc?.({
    chainId: '1',
    body: [
      call('eth_getTransactionCount', [sender, 'latest'], 1),
      call('eth_getTransactionCount', [sender, 'pending'], 2),
      call('eth_feeHistory', ['0x3', 'latest', [25, 75]], 3),
      call('eth_maxPriorityFeePerGas', [], 4),
      call('net_version', [], 5),
      call('eth_getTransactionCount', [sender, `0x${(head + 1).toString(16)}`], 6),
    ],
  });
  const [nonce, pending, history, tip, version, future] = reply?.body as One[];
  t.equal(nonce?.result, `0x${((last?.nonce ?? 0) + 1).toString(16)}`, "the head's last sender: its last nonce + 1");
  t.same([pending?.error?.code, future?.error?.code], [-32000, -32000], 'pending and a block above the head need the node');
  t.match(pending?.error?.message, /eth_getTransactionCount: no node is configured/);
  const h = history?.result as { oldestBlock: string; baseFeePerGas: string[]; gasUsedRatio: number[]; reward: string[][] };
  t.same([h.oldestBlock, h.baseFeePerGas.length, h.gasUsedRatio.length, h.reward.length, h.reward[0]?.length], [`0x${(head - 2).toString(16)}`, 4, 3, 3, 2], 'fee history: 3 blocks, 4 base fees, 2 percentiles each');
  t.ok(BigInt(tip?.result as string) >= 1_000_000_000n, 'a tip of at least 1 gwei');
  t.equal(version?.result, '1');
});

t.test("geth's fee-history rewards: tips sorted, walked by gas used", async (t) => {
  const block = { gasUsed: 100_000n } as BlockRecord;
  const tx = (gasUsed: bigint, gasPrice: bigint) => ({ gasUsed, gasPrice, baseFeePerGas: 10n }) as TransactionRecord;
  const txs = [tx(50_000n, 13n), tx(20_000n, 11n), tx(30_000n, 12n)];
  // sorted tips 1 (20k), 2 (30k), 3 (50k): 20% of the gas is reached at tip 1, 21% at 2, 50% at 2, 51% at 3
  t.same(blockRewards(block, txs, [0, 20, 21, 50, 51, 100]), [1n, 1n, 2n, 2n, 3n, 3n]);
  t.same(blockRewards(block, [], [10, 90]), [0n, 0n], 'an empty block: zeros');
});
