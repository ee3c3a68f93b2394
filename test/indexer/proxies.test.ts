/**
 * Proxies seen by the indexer from the data it already reads, end to end over JSON-RPC against
 * anvil: a hand-assembled EIP-1967 proxy (its constructor writes the implementation slot; any
 * 32-byte call writes a new one) upgraded twice, and an EIP-1167 clone. Each change is in the
 * bundle of its block, at its transaction; a rollback drops the bundles above it.
 */
import t from 'tap';
import type { Address, Hash, Hex, ProxyRecord } from '../../lib/domain/records.ts';
import { startAnvil } from '../../demo/anvil.ts';
import { proxyAt } from '../../lib/proxy/history.ts';
import { PROXY_SLOTS } from '../../lib/proxy/slots.ts';
import { storeFactories } from '../support/stores.ts';
import { DEV_ACCOUNT0, indexerFor, recordingSink, rpc, toHex } from './helpers.ts';

t.setTimeout(60_000);

const IMPLS = ['0x1111111111111111111111111111111111111111', '0x2222222222222222222222222222222222222222', '0x3333333333333333333333333333333333333333'] as const;
const word = (a: string): string => a.slice(2).toLowerCase().padStart(64, '0');
const byte = (n: number): string => n.toString(16).padStart(2, '0');

/** init code returning `runtime` after `prefix` (PUSH1 len DUP1 PUSH1 off PUSH0 CODECOPY PUSH0 RETURN) */
function deployer(prefix: string, runtime: string): Hex {
  const len = runtime.length / 2;
  const offset = prefix.length / 2 + 9;
  return `0x${prefix}60${byte(len)}8060${byte(offset)}5f395ff3${runtime}` as Hex;
}
/** EIP-1967 proxy: constructor SSTOREs the first implementation; runtime: PUSH0 CALLDATALOAD PUSH32 slot SSTORE STOP */
const PROXY_INIT = deployer(`7f${word(IMPLS[0])}7f${PROXY_SLOTS.eip1967.slice(2)}55`, `5f357f${PROXY_SLOTS.eip1967.slice(2)}5500`);
const CLONE_INIT = deployer('', `363d3d373d3d3d363d73${IMPLS[2].slice(2)}5af43d82803e903d91602b57fd5bf3`);

async function mined(url: string, tx: Record<string, unknown>): Promise<{ transactionHash: Hash; blockNumber: Hex; contractAddress: Address | null }> {
  const hash = (await rpc(url, 'eth_sendTransaction', [{ from: DEV_ACCOUNT0, gas: toHex(200_000), ...tx }])) as Hash;
  for (let i = 0; i < 400; i++) {
    const receipt = (await rpc(url, 'eth_getTransactionReceipt', [hash])) as { transactionHash: Hash; blockNumber: Hex; contractAddress: Address | null; status: Hex } | null;
    if (receipt !== null) {
      if (receipt.status !== '0x1') throw new Error(`transaction ${hash} failed`);
      return receipt;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`transaction ${hash} not mined`);
}

t.test('an EIP-1967 proxy upgraded twice and an EIP-1167 clone, from the prestate diffs and created code', async (t) => {
  const anvil = await startAnvil();
  t.teardown(() => anvil.stop());

  const deploy = await mined(anvil.url, { data: PROXY_INIT });
  const proxy = deploy.contractAddress as Address;
  const upgrades = [await mined(anvil.url, { to: proxy, data: `0x${word(IMPLS[1])}` }), await mined(anvil.url, { to: proxy, data: `0x${word(IMPLS[2])}` })];
  const cloned = await mined(anvil.url, { data: CLONE_INIT });
  const clone = cloned.contractAddress as Address;
  t.equal(
    ((await rpc(anvil.url, 'eth_getStorageAt', [proxy, PROXY_SLOTS.eip1967, 'latest'])) as string).toLowerCase(),
    `0x${word(IMPLS[2])}`,
    'the node agrees the proxy points at the last implementation',
  );
  const blocks = [deploy, ...upgrades].map((r) => Number(r.blockNumber));
  const row = (r: ProxyRecord) => [r.proxy, r.type, r.implementations, r.blockNumber, r.transactionHash];
  const expected = [
    [proxy, 'eip1967', [IMPLS[0]], blocks[0], deploy.transactionHash],
    [proxy, 'eip1967', [IMPLS[1]], blocks[1], upgrades[0]?.transactionHash],
    [proxy, 'eip1967', [IMPLS[2]], blocks[2], upgrades[1]?.transactionHash],
    [clone, 'eip1167', [IMPLS[2]], Number(cloned.blockNumber), cloned.transactionHash],
  ];

  for (const factory of await storeFactories()) {
    await t.test(factory.name, async (t) => {
      const store = await factory.open();
      t.teardown(() => store.close());
      const sink = recordingSink(store);
      await indexerFor(anvil.url, sink).run();
      t.same(sink.bundles.flatMap((b) => b.proxies ?? []).map(row), expected, 'each change in the bundle of its block, at its transaction');

      const history = await store.getProxyHistory([clone, proxy, proxy, DEV_ACCOUNT0 as Address]);
      t.same(history.map(row), expected, 'stored with history, oldest first');
      t.same(proxyAt(history, proxy)?.implementations, [IMPLS[2]], 'the current implementation');
      for (const [i, n] of blocks.entries()) t.same(proxyAt(history, proxy, n)?.implementations, [IMPLS[i]], `the implementation at block ${n}`);
      t.equal(proxyAt(history, proxy, (blocks[0] ?? 0) - 1), null, 'not a proxy before its deployment');
      t.same(proxyAt(history, clone)?.type, 'eip1167');

      await store.rollbackAbove(blocks[1] ?? 0);
      const rolled = await store.getProxyHistory([proxy, clone]);
      t.same(rolled.map(row), expected.slice(0, 2), 'a rollback across the second upgrade drops it');
      t.same(proxyAt(rolled, proxy)?.implementations, [IMPLS[1]], 'the first upgrade is current again');

      await indexerFor(anvil.url, store).run();
      t.same((await store.getProxyHistory([proxy, clone])).map(row), expected, 're-indexed: the same history again');
    });
  }
});
