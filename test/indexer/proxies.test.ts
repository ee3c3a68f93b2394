/**
 * Proxies seen by the indexer from the data it already reads, end to end over JSON-RPC against
 * anvil: a hand-assembled EIP-1967 proxy (its constructor writes the implementation slot; any
 * 32-byte call writes a new one) upgraded twice, and an EIP-1167 clone. Each change is in the
 * bundle of its block, at its transaction, and stored with history; a rollback drops what came
 * after it. Served: `proxy_type` and `implementations` on /addresses/{h}, /smart-contracts/{h} and
 * embedded address objects, getsourcecode's proxy keys, and each call decoded with the verified
 * ABI of the implementation in force at its block — over every store, validated against the
 * official documents and ours.
 */
import t from 'tap';
import { createPublicClient, createWalletClient, getAddress, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import type { ChainConfig } from '../../lib/index.ts';
import { createExplorer, saveVerifiedContract, toJson } from '../../lib/index.ts';
import { contractStoreBeside } from '../support/contracts.ts';
import { officialSpecs, validateResponse } from '../support/openapi.ts';
import { validatingExplorer } from '../support/openapiOurs.ts';
import type { Address, Hash, Hex, ProxyRecord } from '../../lib/domain/records.ts';
import { startAnvil } from '../../demo/anvil.ts';
import { proxyAt } from '../../lib/proxy/history.ts';
import { PROXY_SLOTS } from '../../lib/proxy/slots.ts';
import { storeFactories } from '../support/stores.ts';
import { DEV_ACCOUNT0, indexerFor, recordingSink, rpc, toHex } from './helpers.ts';
import { byte, cloneInit, deployer, mined, proxyInit, word } from './proxyContracts.ts';

const IMPLS = ['0x1111111111111111111111111111111111111111', '0x2222222222222222222222222222222222222222', '0x3333333333333333333333333333333333333333'] as const;
const CLONE_INIT = cloneInit(IMPLS[2]);
const PROXY_INIT = proxyInit(IMPLS[0]);

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

const storeAbi = (param: string) => [{ type: 'function', name: 'store', stateMutability: 'nonpayable', inputs: [{ name: param, type: 'uint256', internalType: 'uint256' }], outputs: [] }];
const PARAMS = ['first', 'second', 'third'] as const;

t.test('served: proxy fields, getsourcecode, decoding with the implementation of each block', async (t) => {
  const anvil = await startAnvil();
  t.teardown(() => anvil.stop());
  const specs = await officialSpecs();
  // three implementations with distinct code (no bytecode twins), the same selector, other parameter names
  const impls: Address[] = [];
  for (const n of [1, 2, 3]) impls.push((await mined(anvil.url, { data: deployer('', `60${byte(n)}00`) })).contractAddress as Address);
  const proxy = (await mined(anvil.url, { data: proxyInit(impls[0] as string) })).contractAddress as Address;
  const store = (x: number): Hex => `0x6057361d${word(`0x${x.toString(16)}`)}` as Hex;
  const calls: Hash[] = [];
  calls.push((await mined(anvil.url, { to: proxy, data: store(1) })).transactionHash);
  await mined(anvil.url, { to: proxy, data: `0x${word(impls[1] as string)}` });
  calls.push((await mined(anvil.url, { to: proxy, data: store(2) })).transactionHash);
  await mined(anvil.url, { to: proxy, data: `0x${word(impls[2] as string)}` });
  calls.push((await mined(anvil.url, { to: proxy, data: store(3) })).transactionHash);
  const clone = (await mined(anvil.url, { data: cloneInit(impls[0] as string) })).contractAddress as Address;
  // a second proxy upgraded between two calls of one block: each call decodes with the implementation in force when it starts
  const proxy2 = (await mined(anvil.url, { data: proxyInit(impls[1] as string) })).contractAddress as Address;
  await rpc(anvil.url, 'evm_setAutomine', [false]);
  const send = async (data: Hex): Promise<Hash> => (await rpc(anvil.url, 'eth_sendTransaction', [{ from: DEV_ACCOUNT0, to: proxy2, gas: toHex(200_000), data }])) as Hash;
  const sameBlock = [await send(store(4)), await send(`0x${word(impls[2] as string)}` as Hex), await send(store(5))];
  await rpc(anvil.url, 'evm_mine', []);
  await rpc(anvil.url, 'evm_setAutomine', [true]);
  const sameBlockReceipts = await Promise.all(sameBlock.map((h) => rpc(anvil.url, 'eth_getTransactionReceipt', [h]) as Promise<{ blockNumber: Hex; transactionIndex: Hex }>));
  t.same(new Set(sameBlockReceipts.map((r) => r.blockNumber)).size, 1, 'the three transactions share a block');

  for (const factory of await storeFactories()) {
    await t.test(factory.name, async (t) => {
      const ds = await factory.open();
      t.teardown(() => ds.close());
      await indexerFor(anvil.url, ds).run();
      const chain: ChainConfig = { store: ds, contracts: contractStoreBeside(ds) };
      const codes = new Map((await ds.getContracts(impls)).map((c) => [c.address, c.deployedBytecode]));
      for (const [i, a] of impls.entries()) {
        const param = PARAMS[i] as string;
        await saveVerifiedContract(chain, { address: a, deployedBytecode: codes.get(a) as Hex, name: `Impl_${param}`, compilerVersion: 'v0.8.24+commit.e11b9ed9', optimizationEnabled: false, filePath: 'Impl.sol', sources: { 'Impl.sol': '' }, abi: storeAbi(param) });
      }
      const { explorer: ex, failures, validated } = validatingExplorer(createExplorer({ chains: { '1': chain } }));
      const get = async (path: string, query: Record<string, string> = {}) => JSON.parse(toJson((await ex.handle({ path, query })).body)) as Record<string, unknown>;
      const official = (template: string, body: unknown, what: string): void => {
        if (specs !== null) t.same(validateResponse(specs, 'instance', template, 200, body), [], `${what}: the official document`);
      };
      const current = [{ address_hash: getAddress(impls[2] as string), name: 'Impl_third' }];

      const address = await get(`/api/v2/addresses/${proxy}`);
      t.same([address['proxy_type'], address['implementations']], ['eip1967', current], '/addresses/{proxy}: eip1967, the current implementation, named once verified');
      official('/addresses/{address_hash_param}', address, 'address');
      const contract = await get(`/api/v2/smart-contracts/${proxy}`);
      t.same([contract['proxy_type'], contract['implementations']], ['eip1967', current], '/smart-contracts/{proxy}');
      official('/smart-contracts/{address_hash_param}', contract, 'smart contract');
      const cloneBody = await get(`/api/v2/addresses/${clone}`);
      t.same([cloneBody['proxy_type'], cloneBody['implementations']], ['eip1167', [{ address_hash: getAddress(impls[0] as string), name: 'Impl_first' }]], 'an EIP-1167 clone');
      const plain = await get(`/api/v2/addresses/${impls[0]}`);
      t.same([plain['proxy_type'], plain['implementations']], [null, []], 'no proxy: null and []');

      for (const [i, hash] of calls.entries()) {
        const tx = await get(`/api/v2/transactions/${hash}`);
        const decoded = tx['decoded_input'] as { method_call?: string } | null;
        t.equal(decoded?.method_call, `store(uint256 ${PARAMS[i]})`, `call ${i + 1}: decoded with the implementation of its block`);
        const to = tx['to'] as Record<string, unknown>;
        t.same([to['proxy_type'], to['implementations']], ['eip1967', current], `call ${i + 1}: the embedded address object`);
        official('/transactions/{transaction_hash_param}', tx, `transaction ${i + 1}`);
      }
      for (const [hash, param] of [[sameBlock[0], 'second'], [sameBlock[2], 'third']] as const) {
        const tx = await get(`/api/v2/transactions/${hash}`);
        t.equal((tx['decoded_input'] as { method_call?: string } | null)?.method_call, `store(uint256 ${param})`, `an upgrade inside the block: the call decodes with ${param}`);
      }
      const list = await get(`/api/v2/addresses/${proxy}/transactions`);
      const methods = (list['items'] as { hash: string; method: string | null }[]).filter((x) => calls.includes(x.hash as Hash)).map((x) => x.method);
      t.same(methods, ['store', 'store', 'store'], 'the list names the method');

      const source = await get('/api', { module: 'contract', action: 'getsourcecode', address: proxy });
      const item = (source['result'] as Record<string, unknown>[])[0] ?? {};
      t.same(
        [item['IsProxy'], item['ImplementationAddress'], item['ImplementationAddresses'], item['Proxy'], item['Implementation'], item['ContractName']],
        ['true', impls[2], [impls[2]], '1', impls[2], 'Impl_third'],
        'getsourcecode: an unverified proxy is described by its single implementation',
      );
      t.same(failures, [], `every answer validates against our document (${validated()} answers)`);
    });
  }
});

t.test('an EIP-7702 delegation, from the code the authorization sets (prestate diff)', async (t) => {
  const anvil = await startAnvil();
  t.teardown(() => anvil.stop());
  // anvil's second and first dev accounts: the delegating EOA and the sponsor sending the type-4 transaction
  const eoa = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
  const sponsor = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
  const wallet = createWalletClient({ account: sponsor, chain: foundry, transport: http(anvil.url) });
  const authorization = await wallet.signAuthorization({ account: eoa, contractAddress: IMPLS[1] });
  const hash = await wallet.sendTransaction({ authorizationList: [authorization], to: eoa.address, data: '0x' });
  const receipt = await createPublicClient({ chain: foundry, transport: http(anvil.url) }).waitForTransactionReceipt({ hash });
  const delegator = eoa.address.toLowerCase() as Address;

  for (const factory of await storeFactories()) {
    await t.test(factory.name, async (t) => {
      const ds = await factory.open();
      t.teardown(() => ds.close());
      await indexerFor(anvil.url, ds).run();
      const history = await ds.getProxyHistory([delegator]);
      t.same(
        history.map((r) => [r.proxy, r.type, r.implementations, r.blockNumber, r.transactionHash]),
        [[delegator, 'eip7702', [IMPLS[1]], Number(receipt.blockNumber), hash]],
        'the delegation, at its transaction',
      );
      const { explorer: ex, failures } = validatingExplorer(createExplorer({ chains: { '1': { store: ds } } }));
      const body = JSON.parse(toJson((await ex.handle({ path: `/api/v2/addresses/${delegator}`, query: {} })).body)) as Record<string, unknown>;
      t.same([body['proxy_type'], body['implementations']], ['eip7702', [{ address_hash: getAddress(IMPLS[1]), name: null }]], '/addresses/{eoa}: eip7702, the delegate (unverified: no name)');
      t.same(failures, [], 'validates against our document');
    });
  }
});
