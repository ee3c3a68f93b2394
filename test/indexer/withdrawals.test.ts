/**
 * Beacon-chain withdrawals through the indexer, end to end over JSON-RPC. Anvil's blocks carry
 * `withdrawals: []`; a small JSON-RPC proxy in front of it adds EIP-4895 withdrawals (gwei) to
 * chosen blocks and credits their recipients in `eth_getBalance` from that block on, as a
 * post-Shanghai node would. Indexed into every store: the withdrawals in wei, and every
 * recipient's coin balance equal to the node's `eth_getBalance` at that block — also for a
 * recipient whose balance a transaction of the same block moved (its prestate diff ends before
 * the withdrawal).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import type { Address, Hex } from '../../lib/domain/records.ts';
import { startAnvil } from '../../demo/anvil.ts';
import { createRpcChainSource } from '../../adapters/rpc/index.ts';
import { createIndexer } from '../../lib/indexer/index.ts';
import { storeFactories } from '../support/stores.ts';
import { DEV_ACCOUNT1, rpc, sendMined, toHex } from './helpers.ts';

const GWEI = 1_000_000_000n;
const FRESH = '0x5eed00000000000000000000000000000000beac' as Address;

interface Injected {
  readonly index: number;
  readonly validatorIndex: number;
  readonly address: Address;
  readonly gwei: bigint;
}

type Rpc = { id?: unknown; method?: string; params?: unknown[] };
type Reply = { id?: unknown; result?: unknown };

/** A JSON-RPC proxy adding `withdrawals` to blocks and their credits to balances. */
async function withdrawalProxy(upstream: string, byBlock: ReadonlyMap<number, readonly Injected[]>) {
  const creditAt = (address: string, block: number): bigint => {
    let sum = 0n;
    for (const [n, ws] of byBlock) if (n <= block) for (const w of ws) if (w.address === address.toLowerCase()) sum += w.gwei * GWEI;
    return sum;
  };
  const rewrite = async (req: Rpc, reply: Reply): Promise<Reply> => {
    if (reply.result === null || reply.result === undefined) return reply;
    if (req.method === 'eth_getBlockByNumber' || req.method === 'eth_getBlockByHash') {
      const block = reply.result as Record<string, unknown>;
      const ws = byBlock.get(Number(block['number']));
      if (ws === undefined) return reply;
      const withdrawals = ws.map((w) => ({ index: toHex(w.index), validatorIndex: toHex(w.validatorIndex), address: w.address, amount: toHex(w.gwei) }));
      return { ...reply, result: { ...block, withdrawals } };
    }
    if (req.method === 'debug_traceBlockByNumber' && (req.params?.[1] as { tracer?: string } | undefined)?.tracer === 'prestateTracer') {
      // the node's diffs see the earlier blocks' credits (this block's come after its transactions)
      const before = Number(req.params?.[0]) - 1;
      const shift = (accounts: Record<string, { balance?: string }> | undefined) => {
        for (const [address, state] of Object.entries(accounts ?? {})) {
          if (state.balance !== undefined) state.balance = toHex(BigInt(state.balance) + creditAt(address, before));
        }
      };
      for (const item of reply.result as { result: { pre?: Record<string, { balance?: string }>; post?: Record<string, { balance?: string }> } }[]) {
        shift(item.result.pre);
        shift(item.result.post);
      }
      return reply;
    }
    if (req.method === 'eth_getBalance') {
      const [address, tag] = (req.params ?? []) as [string, string];
      const n = tag.startsWith('0x') ? Number(tag) : Number(await rpc(upstream, 'eth_blockNumber', []));
      return { ...reply, result: toHex(BigInt(reply.result as string) + creditAt(address, n)) };
    }
    return reply;
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const text = Buffer.concat(chunks).toString();
        const up = await fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
        const body = (await up.json()) as Reply | Reply[];
        const sent = JSON.parse(text) as Rpc | Rpc[];
        const out = Array.isArray(body)
          ? await Promise.all(body.map((r) => rewrite((sent as Rpc[]).find((q) => q.id === r.id) ?? {}, r)))
          : await rewrite(sent as Rpc, body);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(out));
      })().catch((e: unknown) => {
        res.statusCode = 500;
        res.end(String(e));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

t.test('withdrawals through the indexer, every store', async (t) => {
const anvil = await startAnvil();
t.teardown(() => anvil.stop());
// blocks 1..4: plain transfers to DEV_ACCOUNT1 (its balance moves inside transactions)
for (let i = 1; i <= 4; i++) await sendMined(anvil.url, BigInt(i) * 10n ** 15n);
const raw = (await rpc(anvil.url, 'eth_getBlockByNumber', ['0x2', false])) as { withdrawals?: unknown };
t.same(raw.withdrawals, [], "anvil's blocks carry an empty withdrawals list");

const injected = new Map<number, Injected[]>([
  [
    2,
    [
      { index: 900, validatorIndex: 7, address: FRESH, gwei: 32_000_000_000n },
      { index: 901, validatorIndex: 8, address: DEV_ACCOUNT1 as Address, gwei: 12_345n },
      { index: 902, validatorIndex: 9, address: FRESH, gwei: 1n },
    ],
  ],
  [4, [{ index: 903, validatorIndex: 7, address: FRESH, gwei: 17_000_000n }]],
]);
const proxy = await withdrawalProxy(anvil.url, injected);
t.teardown(() => proxy.close());

for (const factory of await storeFactories()) {
  await t.test(factory.name, async (t) => {
    const store = await factory.open();
    t.teardown(() => store.close());
    const source = createRpcChainSource(proxy.url, { retry: { retries: 1, baseDelayMs: 20 } });
    await createIndexer({ source, sink: store, batchSize: 3, log: () => {} }).run();
    t.equal(await store.getHighestBlockNumber(), 4);

    const listed = await store.listWithdrawals({}, { after: null, limit: 100, order: 'desc' });
    t.same(
      listed.map((w) => [w.index, w.validatorIndex, w.address, w.amount, w.blockNumber]),
      [
        [903, 7, FRESH, 17_000_000n * GWEI, 4],
        [902, 9, FRESH, GWEI, 2],
        [901, 8, DEV_ACCOUNT1, 12_345n * GWEI, 2],
        [900, 7, FRESH, 32_000_000_000n * GWEI, 2],
      ],
      'every withdrawal, in wei, newest index first',
    );
    const b2 = await store.getBlock({ number: 2 });
    t.ok(listed.every((w) => w.blockNumber !== 2 || (w.blockHash === b2?.hash && w.timestamp === b2.timestamp)), 'block hash and time copied');
    t.same(await store.listWithdrawals({ blocks: { from: 3, to: 3 } }, { after: null, limit: 10, order: 'desc' }), [], "anvil's empty list: none");
    t.same(await store.getWithdrawalTotals(), { count: 4n, sum: (32_000_000_000n + 12_345n + 1n + 17_000_000n) * GWEI });

    // every recipient's balance record at each withdrawal block is the node's balance there
    for (const [n, ws] of injected) {
      for (const address of new Set(ws.map((w) => w.address))) {
        const node = BigInt((await rpc(proxy.url, 'eth_getBalance', [address, toHex(n)])) as Hex);
        const [record] = await store.listCoinBalances({ address, blocks: { to: n } }, { after: null, limit: 1, order: 'desc' });
        t.equal(record?.blockNumber, n, `${address}: a balance record at block ${n}`);
        t.equal(record?.value, node, `${address} at ${n}: the node's eth_getBalance`);
      }
    }
    for (const address of [FRESH, DEV_ACCOUNT1 as Address]) {
      const node = BigInt((await rpc(proxy.url, 'eth_getBalance', [address, 'latest'])) as Hex);
      t.equal(await store.getCoinBalance?.(address), node, `${address}: coin_balance = eth_getBalance at the head`);
    }

    await store.rollbackAbove(2);
    t.same(await store.getWithdrawalTotals(), { count: 3n, sum: (32_000_000_000n + 12_345n + 1n) * GWEI }, 'rolled back with their block');
    await createIndexer({ source, sink: store, log: () => {} }).run();
    t.equal((await store.getWithdrawalTotals()).count, 4n, 're-indexed once');
  });
}
});
