/**
 * A wallet sends through `/api/eth-rpc`: anvil mining a block a second, the indexer following it
 * into a memory store, the server with the node configured (`serve --rpc`). viem's wallet client
 * (a local account, http transport to our endpoint, no chain given: it asks `eth_chainId`; once
 * with the node's eth_fillTransaction, once as with a node without it) and
 * ethers' `Wallet` on a `JsonRpcProvider` (batching, as it does by default) each send a
 * transfer; every call they make goes through our endpoint and none fails. Then both
 * transactions are read back through the API v2 once indexed, and the nonces the store answers
 * at a mined block agree with the node's.
 */
import t from 'tap';
import { HDNodeWallet, JsonRpcProvider } from 'ethers';
import { createPublicClient, createWalletClient, http, toHex } from 'viem';
import type { Hex } from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { DEFAULT_MNEMONIC, startAnvil } from '../../demo/anvil.ts';
import { createRpcNode } from '../../adapters/rpc/index.ts';
import { createMemoryStore } from '../../adapters/memory/index.ts';
import { createServer, LOCAL_PLAN } from '../../host/index.ts';
import { indexerFor, rpc as nodeRpc } from '../indexer/helpers.ts';
import { request } from './helpers.ts';

const CHAIN = '31337';

t.test('viem and ethers send through /api/eth-rpc; the API shows what they sent', async (t) => {
  const anvil = await startAnvil({ blockTime: 1 });
  t.teardown(() => anvil.stop());
  const store = createMemoryStore();
  const following = new AbortController();
  const indexing = indexerFor(anvil.url, store).run({ follow: true, signal: following.signal });
  t.teardown(async () => {
    following.abort();
    await indexing;
  });
  const server = createServer({
    chains: { [CHAIN]: { store, node: createRpcNode(anvil.url) } },
    anonymousPlan: LOCAL_PLAN,
    log: false,
    docs: false,
    metrics: false,
  });
  const { url } = await server.listen(0);
  t.teardown(() => server.close());
  const endpoint = `${url}/api/eth-rpc`;

  // every call the wallets make, and every error we answer
  const calls = new Map<string, number>();
  const failures: string[] = [];
  const watch = (body: unknown, reply: unknown) => {
    const requests = (Array.isArray(body) ? body : [body]) as { method: string }[];
    const replies = (Array.isArray(reply) ? reply : [reply]) as { error?: { message: string } }[];
    requests.forEach((r, i) => {
      calls.set(r.method, (calls.get(r.method) ?? 0) + 1);
      const error = replies[i]?.error;
      if (error !== undefined && r.method !== 'eth_fillTransaction') failures.push(`${r.method}: ${error.message}`);
    });
  };
  const watchingFetch: typeof fetch = async (input, init) => {
    const reply = await fetch(input, init);
    watch(JSON.parse(String(init?.body)), await reply.clone().json());
    return reply;
  };

  const [alice, bob, carol] = [1, 2, 3].map((addressIndex) => mnemonicToAccount(DEFAULT_MNEMONIC, { addressIndex })) as [
    ReturnType<typeof mnemonicToAccount>,
    ReturnType<typeof mnemonicToAccount>,
    ReturnType<typeof mnemonicToAccount>,
  ];

  // viem: a local account from its private key, our endpoint as the transport. It first asks
  // eth_fillTransaction (forwarded: anvil fills the nonce, fees and gas); a second client whose
  // node lacks it (answered -32601 here) falls back to the single calls, which we answer.
  const account = privateKeyToAccount(toHex(alice.getHdKey().privateKey as Uint8Array));
  const viemTransport = http(endpoint, { fetchFn: watchingFetch });
  const ours = createPublicClient({ transport: viemTransport, pollingInterval: 200 });
  t.equal(await ours.getTransactionCount({ address: account.address, blockTag: 'pending' }), 0, 'a fresh account: pending nonce 0');
  const noFill: typeof fetch = async (input, init) => {
    const body = JSON.parse(String(init?.body)) as { id: number; method: string };
    if (body.method !== 'eth_fillTransaction') return watchingFetch(input, init);
    return new Response(JSON.stringify({ jsonrpc: '2.0', id: body.id, error: { code: -32601, message: 'the method eth_fillTransaction does not exist/is not available' } }));
  };
  const viemHashes: Hex[] = [];
  for (const [fetchFn, expected] of [
    [watchingFetch, ['eth_fillTransaction', 'eth_sendRawTransaction', 'eth_getTransactionReceipt']],
    [noFill, ['eth_chainId', 'eth_getTransactionCount', 'eth_getBlockByNumber', 'eth_maxPriorityFeePerGas', 'eth_estimateGas', 'eth_sendRawTransaction', 'eth_getTransactionReceipt']],
  ] as const) {
    calls.clear();
    const wallet = createWalletClient({ account, transport: http(endpoint, { fetchFn }), pollingInterval: 200 });
    const hash = await wallet.sendTransaction({ chain: null, to: carol.address, value: 12_345n });
    const receipt = await createPublicClient({ transport: http(endpoint, { fetchFn }), pollingInterval: 200 }).waitForTransactionReceipt({ hash, timeout: 20_000 });
    t.equal(receipt.status, 'success', 'viem: mined');
    for (const method of expected) t.ok((calls.get(method) ?? 0) > 0, `viem called ${method} through us`);
    viemHashes.push(hash);
  }

  // ethers: a Wallet on a JsonRpcProvider at our endpoint (it detects the network by eth_chainId)
  calls.clear();
  const provider = new JsonRpcProvider(endpoint, undefined, { polling: true });
  provider.pollingInterval = 200;
  const original = provider._send.bind(provider);
  provider._send = async (payload) => {
    const replies = await original(payload);
    watch(payload, replies);
    return replies;
  };
  t.teardown(() => provider.destroy());
  const signer = HDNodeWallet.fromPhrase(DEFAULT_MNEMONIC, undefined, "m/44'/60'/0'/0/2").connect(provider);
  t.equal(signer.address, bob.address, 'the same account as viem derives');
  const sent = await signer.sendTransaction({ to: carol.address, value: 67_890n });
  const ethersReceipt = await sent.wait(1, 20_000);
  t.equal(ethersReceipt?.status, 1, 'ethers: mined');
  for (const method of ['eth_chainId', 'eth_getTransactionCount', 'eth_getBlockByNumber', 'eth_maxPriorityFeePerGas', 'eth_estimateGas', 'eth_sendRawTransaction', 'eth_getTransactionReceipt']) {
    t.ok((calls.get(method) ?? 0) > 0, `ethers called ${method} through us`);
  }
  t.same(failures, [], 'no call failed');

  // both read back through the API v2 once the indexer has them
  for (const [hash, from, value, nonce] of [
    [viemHashes[0], account.address, '12345', 0],
    [viemHashes[1], account.address, '12345', 1],
    [sent.hash as Hex, bob.address, '67890', 0],
  ] as const) {
    // the indexer may hold it as pending first (status null): wait for its block, not for any answer
    const mined = (r: { status: number; json: unknown }): boolean => r.status === 200 && (r.json as { block_number: number | null }).block_number !== null;
    let reply = await request(`${url}/api/v2/transactions/${hash}`);
    for (let i = 0; i < 600 && !mined(reply); i++) {
      await new Promise((r) => setTimeout(r, 100));
      reply = await request(`${url}/api/v2/transactions/${hash}`);
    }
    t.ok(mined(reply), `API v2 has ${hash} in its block (waited up to a minute for the indexer)`);
    const tx = reply.json as { hash: string; from: { hash: string }; to: { hash: string }; value: string; status: string; nonce: number };
    t.equal(reply.status, 200, `API v2 has ${hash}`);
    t.same([tx.hash, tx.from.hash, tx.to.hash, tx.value, tx.status, tx.nonce], [hash, from, carol.address, value, 'ok', nonce], 'as sent');
  }

  // once mined and indexed, the store answers the nonce at that block itself (the node agrees)
  const block = toHex(ethersReceipt?.blockNumber ?? 0);
  for (const who of [account.address, bob.address, carol.address]) {
    const [a, b] = await Promise.all([ours.request({ method: 'eth_getTransactionCount', params: [who, block] }), nodeRpc(anvil.url, 'eth_getTransactionCount', [who, block])]);
    t.equal(a, b, `eth_getTransactionCount ${who} at ${block}`);
  }
  t.equal(await ours.getTransactionCount({ address: account.address, blockTag: 'pending' }), 2, 'viem account: pending nonce 2 after its sends');
});
