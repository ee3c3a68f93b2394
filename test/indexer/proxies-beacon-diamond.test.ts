/**
 * Beacon proxies and EIP-2535 diamonds from the data the indexer already reads, end to end over
 * JSON-RPC against anvil (hand-assembled contracts, test/indexer/proxyContracts.ts):
 * - a beacon (`Upgraded` at construction and on its upgrade) with a beacon proxy (the EIP-1967
 *   beacon slot): the proxy's implementations are the beacon's in force at each block, and each
 *   call decodes with them;
 * - a diamond cut three times (add, replace one selector, remove one): its facets in force, and
 *   each call decodes with the facet its selector is routed to at its block.
 * Over every store, validated against the official documents and ours.
 */
import t from 'tap';
import { encodeAbiParameters, getAddress, toFunctionSelector } from 'viem';
import type { ChainConfig } from '../../lib/index.ts';
import { createExplorer, hex, saveVerifiedContract, toJson, ZERO_ADDRESS } from '../../lib/index.ts';
import type { Address, Hash, Hex } from '../../lib/domain/records.ts';
import { startAnvil } from '../../demo/anvil.ts';
import { contractStoreBeside } from '../support/contracts.ts';
import { officialSpecs, validateResponse } from '../support/openapi.ts';
import { validatingExplorer } from '../support/openapiOurs.ts';
import { storeFactories } from '../support/stores.ts';
import { indexerFor } from './helpers.ts';
import { beaconInit, beaconProxyInit, byte, deployer, diamondInit, mined, word } from './proxyContracts.ts';

type Fn = { type: 'function'; name: string; stateMutability: 'nonpayable'; inputs: { name: string; type: 'uint256'; internalType: 'uint256' }[]; outputs: [] };
const fn = (name: string, param: string): Fn => ({ type: 'function', name, stateMutability: 'nonpayable', inputs: [{ name: param, type: 'uint256', internalType: 'uint256' }], outputs: [] });
const call = (name: string, x: number): Hex => `${toFunctionSelector(`${name}(uint256)`)}${word(`0x${x.toString(16)}`)}` as Hex;
const methodCall = async (get: (path: string) => Promise<Record<string, unknown>>, hash: Hash): Promise<string | undefined> =>
  ((await get(`/api/v2/transactions/${hash}`))['decoded_input'] as { method_call?: string } | null)?.method_call;

const CUT = [{ type: 'tuple[]', components: [{ type: 'address' }, { type: 'uint8' }, { type: 'bytes4[]' }] }, { type: 'address' }, { type: 'bytes' }] as const;
const cut = (cuts: readonly (readonly [Address, number, readonly string[]])[]): Hex =>
  hex(
    encodeAbiParameters(CUT, [
      cuts.map(([f, a, names]) => [f, a, names.map((n) => toFunctionSelector(`${n}(uint256)`))] as const),
      '0x0000000000000000000000000000000000000000',
      '0x',
    ]),
  );

t.test('a beacon upgraded once and a diamond cut three times: implementations and decoding per block', async (t) => {
  const anvil = await startAnvil();
  t.teardown(() => anvil.stop());
  const specs = await officialSpecs();
  // five implementations with distinct code (no bytecode twins)
  const impls: Address[] = [];
  for (const n of [1, 2, 3, 4]) impls.push((await mined(anvil.url, { data: deployer('', `60${byte(n)}00`) })).contractAddress as Address);
  const [implA, implB, facetA, facetB] = impls as [Address, Address, Address, Address];

  // the beacon and its proxy: a call, the beacon's upgrade, a call
  const beacon = (await mined(anvil.url, { data: beaconInit(implA) })).contractAddress as Address;
  const proxy = (await mined(anvil.url, { data: beaconProxyInit(beacon) })).contractAddress as Address;
  const beforeUpgrade = (await mined(anvil.url, { to: proxy, data: call('store', 1) })).transactionHash;
  const upgrade = await mined(anvil.url, { to: beacon, data: `0x${word(implB)}` });
  const afterUpgrade = (await mined(anvil.url, { to: proxy, data: call('store', 2) })).transactionHash;

  // the diamond: add facet A (store, other), call both; replace store by facet B, call both; remove other
  const diamond = (await mined(anvil.url, { data: diamondInit() })).contractAddress as Address;
  await mined(anvil.url, { to: diamond, data: cut([[facetA, 0, ['store', 'other']]]), gas: '0x100000' });
  const diamondCalls1 = [(await mined(anvil.url, { to: diamond, data: call('store', 3) })).transactionHash, (await mined(anvil.url, { to: diamond, data: call('other', 4) })).transactionHash];
  await mined(anvil.url, { to: diamond, data: cut([[facetB, 1, ['store']]]), gas: '0x100000' });
  const diamondCalls2 = [(await mined(anvil.url, { to: diamond, data: call('store', 5) })).transactionHash, (await mined(anvil.url, { to: diamond, data: call('other', 6) })).transactionHash];
  const removal = await mined(anvil.url, { to: diamond, data: cut([[ZERO_ADDRESS, 2, ['other']]]), gas: '0x100000' });

  for (const factory of await storeFactories()) {
    await t.test(factory.name, async (t) => {
      const ds = await factory.open();
      t.teardown(() => ds.close());
      await indexerFor(anvil.url, ds).run();
      const chain: ChainConfig = { store: ds, contracts: contractStoreBeside(ds) };
      const codes = new Map((await ds.getContracts(impls)).map((c) => [c.address, c.deployedBytecode]));
      const abis: Record<Address, Fn[]> = {
        [implA]: [fn('store', 'beaconFirst')],
        [implB]: [fn('store', 'beaconSecond')],
        [facetA]: [fn('store', 'facetA'), fn('other', 'facetA')],
        [facetB]: [fn('store', 'facetB'), fn('other', 'facetB')],
      };
      const names = ['ImplA', 'ImplB', 'FacetA', 'FacetB'];
      for (const [i, a] of impls.entries()) {
        await saveVerifiedContract(chain, { address: a, deployedBytecode: codes.get(a) as Hex, name: names[i] as string, compilerVersion: 'v0.8.24+commit.e11b9ed9', optimizationEnabled: false, filePath: 'Impl.sol', sources: { 'Impl.sol': '' }, abi: abis[a] ?? [] });
      }
      const { explorer: ex, failures, validated } = validatingExplorer(createExplorer({ chains: { '1': chain } }));
      const get = async (path: string, query: Record<string, string> = {}) => JSON.parse(toJson((await ex.handle({ path, query })).body)) as Record<string, unknown>;
      const official = (template: string, body: unknown, what: string): void => {
        if (specs !== null) t.same(validateResponse(specs, 'instance', template, 200, body), [], `${what}: the official document`);
      };
      const fields = (body: Record<string, unknown>) => [body['proxy_type'], body['implementations']];
      const named = (a: Address, name: string) => ({ address_hash: getAddress(a), name });

      // the beacon
      const history = await ds.getProxyHistory([beacon, proxy]);
      t.same(
        history.map((r) => [r.proxy, r.type, r.implementations, r.beacon]),
        [
          [beacon, 'basic_implementation', [implA], null],
          [proxy, 'eip1967_beacon', [], beacon],
          [beacon, 'basic_implementation', [implB], null],
        ],
        'the beacon from its Upgraded logs, the proxy naming its beacon',
      );
      t.equal(history[2]?.transactionHash, upgrade.transactionHash, 'the upgrade at its transaction');
      const proxyBody = await get(`/api/v2/addresses/${proxy}`);
      t.same(fields(proxyBody), ['eip1967_beacon', [named(implB, 'ImplB')]], '/addresses/{beacon proxy}: the beacon’s current implementation');
      official('/addresses/{address_hash_param}', proxyBody, 'beacon proxy address');
      const contract = await get(`/api/v2/smart-contracts/${proxy}`);
      t.same(fields(contract), ['eip1967_beacon', [named(implB, 'ImplB')]], '/smart-contracts/{beacon proxy}');
      official('/smart-contracts/{address_hash_param}', contract, 'beacon proxy smart contract');
      t.same(fields(await get(`/api/v2/addresses/${beacon}`)), ['basic_implementation', [named(implB, 'ImplB')]], '/addresses/{beacon}: basic_implementation, as Blockscout calls implementation() on it');
      t.equal(await methodCall(get, beforeUpgrade), 'store(uint256 beaconFirst)', 'a call before the beacon’s upgrade decodes with the first implementation');
      t.equal(await methodCall(get, afterUpgrade), 'store(uint256 beaconSecond)', 'a call after it decodes with the second');
      const source = ((await get('/api', { module: 'contract', action: 'getsourcecode', address: proxy }))['result'] as Record<string, unknown>[])[0] ?? {};
      t.same([source['IsProxy'], source['ImplementationAddress']], ['true', implB], 'getsourcecode: the beacon’s implementation');

      // the diamond
      const cuts = await ds.getProxyHistory([diamond]);
      t.same(
        cuts.map((r) => [r.type, r.implementations, r.cuts?.map((c) => [c.facet, c.action, c.selectors.length])]),
        [
          ['eip2535', [facetA], [[facetA, 0, 2]]],
          ['eip2535', [facetB], [[facetB, 1, 1]]],
          ['eip2535', [], [['0x0000000000000000000000000000000000000000', 2, 1]]],
        ],
        'each DiamondCut stored with its cuts',
      );
      t.equal(cuts[2]?.transactionHash, removal.transactionHash, 'the removal at its transaction');
      const diamondBody = await get(`/api/v2/addresses/${diamond}`);
      t.same(fields(diamondBody), ['eip2535', [named(facetB, 'FacetB')]], '/addresses/{diamond}: eip2535, the facets in force (other removed: facet A holds nothing)');
      official('/addresses/{address_hash_param}', diamondBody, 'diamond address');
      const diamondContract = await get(`/api/v2/smart-contracts/${diamond}`);
      t.same(fields(diamondContract), ['eip2535', [named(facetB, 'FacetB')]], '/smart-contracts/{diamond}');
      official('/smart-contracts/{address_hash_param}', diamondContract, 'diamond smart contract');
      t.same(
        [await methodCall(get, diamondCalls1[0] as Hash), await methodCall(get, diamondCalls1[1] as Hash)],
        ['store(uint256 facetA)', 'other(uint256 facetA)'],
        'after the first cut: both selectors decode with facet A',
      );
      t.same(
        [await methodCall(get, diamondCalls2[0] as Hash), await methodCall(get, diamondCalls2[1] as Hash)],
        ['store(uint256 facetB)', 'other(uint256 facetA)'],
        'after the replacement: store routes to facet B, other still to facet A (though B has one too)',
      );
      const list = await get(`/api/v2/addresses/${diamond}/transactions`);
      const decodedList = (list['items'] as { hash: string; method: string | null }[]).filter((x) => [...diamondCalls1, ...diamondCalls2].includes(x.hash as Hash)).map((x) => x.method);
      t.same(decodedList, ['other', 'store', 'other', 'store'], 'the list names the methods');
      t.same(failures, [], `every answer validates against our document (${validated()} answers)`);
    });
  }
});
