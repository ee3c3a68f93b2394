/**
 * A reorg across an upgrade, on anvil with the indexer following (evm_snapshot, upgrades of an
 * EIP-1967 proxy and of a beacon and a call, evm_revert, a longer chain without them): the
 * upgrades are rolled back, `implementations` are the old ones again and the new chain's calls
 * decode with them. Over every store.
 */
import t from 'tap';
import { getAddress } from 'viem';
import type { ChainConfig } from '../../lib/index.ts';
import { createExplorer, saveVerifiedContract, toJson } from '../../lib/index.ts';
import type { Address, Hash, Hex } from '../../lib/domain/records.ts';
import type { IndexerEvent } from '../../lib/indexer/index.ts';
import { startAnvil } from '../../demo/anvil.ts';
import { contractStoreBeside } from '../support/contracts.ts';
import { validatingExplorer } from '../support/openapiOurs.ts';
import { storeFactories } from '../support/stores.ts';
import { indexerFor, rpc } from './helpers.ts';
import { beaconInit, beaconProxyInit, byte, deployer, mined, proxyInit, word } from './proxyContracts.ts';

const storeAbi = (param: string) => [{ type: 'function', name: 'store', stateMutability: 'nonpayable', inputs: [{ name: param, type: 'uint256', internalType: 'uint256' }], outputs: [] }];
const store = (x: number): Hex => `0x6057361d${word(`0x${x.toString(16)}`)}` as Hex;

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

for (const factory of await storeFactories()) {
  t.test(`${factory.name}: a reorg across an upgrade rolls it back, the indexer following`, async (t) => {
    const anvil = await startAnvil();
    const ds = await factory.open();
    t.teardown(async () => {
      await ds.close();
      await anvil.stop();
    });
    const impls: Address[] = [];
    for (const n of [1, 2]) impls.push((await mined(anvil.url, { data: deployer('', `60${byte(n)}00`) })).contractAddress as Address);
    const [first, second] = impls as [Address, Address];
    const proxy = (await mined(anvil.url, { data: proxyInit(first) })).contractAddress as Address;
    const beacon = (await mined(anvil.url, { data: beaconInit(first) })).contractAddress as Address;
    const beaconProxy = (await mined(anvil.url, { data: beaconProxyInit(beacon) })).contractAddress as Address;
    const kept = (await mined(anvil.url, { to: proxy, data: store(1) })).transactionHash;

    const controller = new AbortController();
    const events: IndexerEvent[] = [];
    const running = indexerFor(anvil.url, ds, { events }).run({ follow: true, signal: controller.signal });
    t.teardown(() => controller.abort());
    // mined and indexed: the indexer also stores the pool's pending transactions, and a call seen
    // in the pool before its block is indexed would let the checks below run a block early
    const indexed = (hash: Hash) => until(async () => ((await ds.getTransaction(hash))?.blockNumber ?? null) !== null, `${hash} indexed in its block`);
    await indexed(kept);

    const chain: ChainConfig = { store: ds, contracts: contractStoreBeside(ds) };
    const codes = new Map((await ds.getContracts(impls)).map((c) => [c.address, c.deployedBytecode]));
    for (const [i, a] of impls.entries()) {
      const name = i === 0 ? 'First' : 'Second';
      await saveVerifiedContract(chain, { address: a, deployedBytecode: codes.get(a) as Hex, name, compilerVersion: 'v0.8.24+commit.e11b9ed9', optimizationEnabled: false, filePath: 'Impl.sol', sources: { 'Impl.sol': '' }, abi: storeAbi(name.toLowerCase()) });
    }
    const { explorer: ex, failures, validated } = validatingExplorer(createExplorer({ chains: { '1': chain } }));
    const get = async (path: string) => {
      const r = await ex.handle({ path, query: {} });
      return { status: r.status, body: JSON.parse(toJson(r.body)) as Record<string, unknown> };
    };
    const implementations = async (a: Address) => ((await get(`/api/v2/addresses/${a}`)).body['implementations'] as { address_hash: string }[]).map((x) => x.address_hash);
    const methodCall = async (h: Hash) => ((await get(`/api/v2/transactions/${h}`)).body['decoded_input'] as { method_call?: string } | null)?.method_call;

    // the soon-orphaned branch: both upgrades and a call through the upgraded proxy
    const snapshot = await rpc(anvil.url, 'evm_snapshot', []);
    await mined(anvil.url, { to: proxy, data: `0x${word(second)}` });
    await mined(anvil.url, { to: beacon, data: `0x${word(second)}` });
    const orphaned = (await mined(anvil.url, { to: proxy, data: store(2) })).transactionHash;
    await indexed(orphaned);
    t.same(await implementations(proxy), [getAddress(second)], 'upgraded: the second implementation');
    t.same(await implementations(beaconProxy), [getAddress(second)], 'the beacon upgraded: the beacon proxy follows');
    t.equal(await methodCall(orphaned), 'store(uint256 second)', 'the call after the upgrade decodes with the second');
    const upgradedHeight = await ds.getHighestBlockNumber();

    // the canonical branch: longer, without the upgrades
    await rpc(anvil.url, 'evm_revert', [snapshot]);
    const replacing: Hash[] = [];
    for (const [to, x] of [[proxy, 3], [beaconProxy, 4], [proxy, 5], [beaconProxy, 6]] as const) replacing.push((await mined(anvil.url, { to, data: store(x) })).transactionHash);
    await indexed(replacing[3] as Hash);
    await until(async () => (await ds.getTransaction(orphaned)) === null, 'the orphaned call dropped');
    controller.abort();
    await running;

    t.ok(events.some((e) => e.type === 'reorg'), 'the indexer saw the reorg');
    t.ok((await ds.getHighestBlockNumber() ?? 0) > (upgradedHeight ?? 0), 'the new branch is longer');
    const history = await ds.getProxyHistory([proxy, beacon, beaconProxy]);
    t.same(
      history.map((r) => [r.proxy, r.type, r.implementations]),
      [
        [proxy, 'eip1967', [first]],
        [beacon, 'basic_implementation', [first]],
        [beaconProxy, 'eip1967_beacon', []],
      ],
      'the upgrades rolled back: only the deployments remain',
    );
    t.same(await implementations(proxy), [getAddress(first)], 'the proxy points at the first implementation again');
    t.same(await implementations(beaconProxy), [getAddress(first)], 'the beacon proxy too');
    for (const h of replacing) t.equal(await methodCall(h), 'store(uint256 first)', `${h}: the new branch decodes with the first implementation`);
    t.equal(await methodCall(kept), 'store(uint256 first)', 'the call before the fork is unchanged');
    t.equal((await get(`/api/v2/transactions/${orphaned}`)).status, 404, 'the orphaned call is gone');
    t.same(failures, [], `every answer validates against our document (${validated()} answers)`);
  });
}
