/**
 * The Etherscan-compatible dialect against a real client: ethers v6's `EtherscanProvider`
 * pointed at the demo scenario on anvil, indexed into memory and SQLite and served (with
 * `--rpc`, so `eth_call` is forwarded). Its getBlockNumber, getBalance, getTransaction,
 * getTransactionReceipt, getBlock and call agree with ethers' JsonRpcProvider on the node.
 *
 * How ethers v6 (6.17) reaches an Etherscan-like API: `getUrl` builds
 * `https://api.etherscan.io/v2/api?chainid=<id>&module=…&action=…&apikey=…` (Etherscan's v2
 * multichain URL, fixed host), `getPostUrl` the same without parameters (POST bodies are
 * form-urlencoded and carry module, action, apikey and chainid), and the constructor accepts only
 * the chain ids Etherscan supports. So the scenario runs on a supported id (Sepolia, 11155111)
 * and a subclass swaps the fixed host for ours, keeping everything else as ethers sends it
 * (the `chainid` and `apikey` parameters are accepted and read as elsewhere). ethers' getLogs is
 * not implemented by EtherscanProvider (commented out in its source): the same client's
 * `fetch('logs', {action: 'getLogs', …})` reads our `logs/getLogs` and is compared with the node.
 * Also: the multichain form `/{chain_id}/api`, the key charged per request, the legacy paths.
 */
import t from 'tap';
import type { Test } from 'tap';
import { EtherscanProvider, Interface, JsonRpcProvider, Network } from 'ethers';
import { startAnvil } from '../../demo/anvil.ts';
import type { Anvil } from '../../demo/anvil.ts';
import { runScenario } from '../../demo/scenario.ts';
import type { ScenarioFacts } from '../../demo/scenario.ts';
import { createRpcNode } from '../../adapters/rpc/index.ts';
import { createServer, LOCAL_PLAN } from '../../host/index.ts';
import type { Plan } from '../../host/index.ts';
import { storeFactories } from '../support/stores.ts';
import type { TestStore } from '../support/stores.ts';
import { indexerFor } from '../indexer/helpers.ts';
import { limitHeaders, request } from './helpers.ts';

const CHAIN_ID = 11155111; // a chain id ethers' EtherscanProvider accepts
const ETHERSCAN_V2 = 'https://api.etherscan.io/v2/api';
const PLAN: Plan = { name: 'metered', requestsPerSecond: 1000, credits: 1_000_000, creditPeriod: 'month' };
const POOR: Plan = { name: 'poor', requestsPerSecond: 1000, credits: 2, creditPeriod: 'month' };

/** ethers' own provider, with Etherscan's fixed host swapped for ours (`<base>/api` or `<base>/<chain_id>/api`). */
class ScoutkitEtherscanProvider extends EtherscanProvider {
  readonly #api: string;
  constructor(api: string, apiKey?: string) {
    super(Network.from(CHAIN_ID), apiKey);
    this.#api = api;
  }
  override getBaseUrl(): string {
    return this.#api;
  }
  override getUrl(module: string, params: Record<string, string>): string {
    return super.getUrl(module, params).replace(ETHERSCAN_V2, this.#api);
  }
  override getPostUrl(): string {
    return super.getPostUrl().replace(ETHERSCAN_V2, this.#api);
  }
}

let anvil: Anvil;
let facts: ScenarioFacts;
let node: JsonRpcProvider;
t.before(async () => {
  anvil = await startAnvil({ chainId: CHAIN_ID });
  facts = await runScenario(anvil.url, { rounds: 1 });
  node = new JsonRpcProvider(anvil.url, CHAIN_ID, { staticNetwork: true });
});
t.teardown(async () => {
  node?.destroy();
  await anvil?.stop();
});

async function served(t: Test, store: TestStore) {
  const server = createServer({
    chains: { [String(CHAIN_ID)]: { store, node: createRpcNode(anvil.url) } },
    keys: [
      { key: 'k-metered', plan: PLAN },
      { key: 'k-poor', plan: POOR },
    ],
    anonymousPlan: LOCAL_PLAN,
    log: false,
    docs: false,
    metrics: false,
  });
  const { url } = await server.listen(0);
  t.teardown(() => server.close());
  return url;
}

const ERC20 = new Interface(['function balanceOf(address) view returns (uint256)', 'function fail() view']);

t.test("ethers' EtherscanProvider agrees with the node", async (t) => {
  for (const factory of await storeFactories()) {
    if (factory.name === 'postgres') continue; // two stores are enough against a node; the conformance suite covers all three
    await t.test(factory.name, async (t) => {
      const store = await factory.open();
      t.teardown(() => store.close());
      await indexerFor(anvil.url, store).run();
      const url = await served(t, store);
      for (const [form, api] of [
        ['per instance', `${url}/api`],
        ['multichain', `${url}/${CHAIN_ID}/api`],
      ] as const) {
        await t.test(form, async (t) => {
          const scan = new ScoutkitEtherscanProvider(api, 'k-metered');
          t.equal(await scan.getBlockNumber(), await node.getBlockNumber(), 'getBlockNumber');
          for (const who of [...Object.values(facts.accounts), ...Object.values(facts.contracts)]) {
            t.equal(await scan.getBalance(who), await node.getBalance(who), `getBalance ${who}`);
          }
          for (const hash of facts.allTxs) {
            const [ours, theirs] = await Promise.all([scan.getTransaction(hash), node.getTransaction(hash)]);
            if (ours === null || theirs === null) {
              t.fail(`getTransaction ${hash}: ${ours === null ? 'ours' : 'the node'} is null`);
              continue;
            }
            for (const k of ['hash', 'blockHash', 'blockNumber', 'index', 'type', 'to', 'from', 'nonce', 'gasLimit', 'gasPrice', 'maxPriorityFeePerGas', 'maxFeePerGas', 'data', 'value', 'chainId'] as const) {
              t.same(ours[k], theirs[k], `getTransaction ${hash} ${k}`);
            }
            const [r, s] = await Promise.all([scan.getTransactionReceipt(hash), node.getTransactionReceipt(hash)]);
            if (r === null || s === null) {
              t.fail(`getTransactionReceipt ${hash}: null`);
              continue;
            }
            for (const k of ['to', 'from', 'contractAddress', 'hash', 'index', 'blockHash', 'blockNumber', 'logsBloom', 'gasUsed', 'cumulativeGasUsed', 'gasPrice', 'type', 'status'] as const) {
              t.same(r[k], s[k], `getTransactionReceipt ${hash} ${k}`);
            }
            t.same(r.logs.map((l) => l.toJSON()), s.logs.map((l) => l.toJSON()), `getTransactionReceipt ${hash} logs`);
          }
          const head = await node.getBlockNumber();
          for (let n = 0; n <= head; n++) {
            const [ours, theirs] = await Promise.all([scan.getBlock(n), node.getBlock(n)]);
            if (ours === null || theirs === null) {
              t.fail(`getBlock ${n}: null`);
              continue;
            }
            for (const k of ['hash', 'number', 'parentHash', 'timestamp', 'nonce', 'difficulty', 'gasLimit', 'gasUsed', 'miner', 'extraData', 'baseFeePerGas', 'stateRoot', 'transactions'] as const) {
              t.same(ours[k], theirs[k], `getBlock ${n} ${k}`);
            }
          }
          t.equal((await scan.getBlock('latest'))?.hash, (await node.getBlock('latest'))?.hash, 'getBlock latest');

          // logs: ethers' EtherscanProvider leaves getLogs unimplemented; its fetch reads logs/getLogs
          const nodeLogs = await node.getLogs({ fromBlock: 0, toBlock: head, address: facts.contracts.token });
          const rows = (await scan.fetch('logs', { action: 'getLogs', fromBlock: 0, toBlock: 'latest', address: facts.contracts.token })) as { address: string; topics: (string | null)[]; data: string; blockNumber: string; logIndex: string; transactionHash: string; transactionIndex: string }[];
          t.ok(nodeLogs.length > 0, 'the node has logs of the token');
          t.same(
            rows.map((l) => [l.address, l.topics.filter((x) => x !== null), l.data, Number(l.blockNumber), Number(l.logIndex), l.transactionHash, Number(l.transactionIndex)]),
            nodeLogs.map((l) => [l.address.toLowerCase(), [...l.topics], l.data, l.blockNumber, l.index, l.transactionHash, l.transactionIndex]),
            'logs/getLogs = eth_getLogs on the node',
          );
          const transfer = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
          const byTopic = (await scan.fetch('logs', { action: 'getLogs', fromBlock: 0, toBlock: 'latest', topic0: transfer })) as unknown[];
          t.equal(byTopic.length, (await node.getLogs({ fromBlock: 0, toBlock: head, topics: [transfer] })).length, 'getLogs by topic0: as many as the node');

          // call: forwarded to the node (POST, form body, as ethers sends it)
          const call = { to: facts.contracts.token, data: ERC20.encodeFunctionData('balanceOf', [facts.accounts.alice]) };
          t.equal(await scan.call(call), await node.call(call), 'call (forwarded)');
          const revert = await scan.call({ to: facts.contracts.reverter, data: ERC20.encodeFunctionData('fail') }).catch((e: { code?: string }) => e.code);
          t.equal(revert, 'CALL_EXCEPTION', 'a revert: ethers decodes it from the forwarded error');
          t.equal(await scan.getCode(facts.contracts.token), await node.getCode(facts.contracts.token), 'getCode (forwarded)');
          t.same(await scan.getContract(facts.contracts.token), null, 'getContract: not verified → null');
        });
      }
    });
  }
});

t.test('keys and credits, the legacy paths, POST', async (t) => {
  const [factory] = await storeFactories();
  const store = await (factory as NonNullable<typeof factory>).open();
  t.teardown(() => store.close());
  await indexerFor(anvil.url, store).run();
  const url = await served(t, store);
  const head = await node.getBlockNumber();

  const keyed = await request(`${url}/api?module=block&action=eth_block_number&apikey=k-metered`);
  const again = await request(`${url}/api?module=block&action=eth_block_number&apikey=k-metered`);
  t.same(keyed.json, { jsonrpc: '2.0', id: 1, result: `0x${head.toString(16)}` }, 'eth_block_number');
  t.equal(limitHeaders(keyed).credits - limitHeaders(again).credits, 1, 'one credit per request, as API v2');
  const bad = await request(`${url}/api?module=block&action=eth_block_number&apikey=nope`);
  t.same([bad.status, bad.json], [200, keyed.json], 'an unknown key on the per-instance form: ignored, the caller limited by IP, as Blockscout (hardhat-verify 2 always sends `api_key`)');
  t.not(limitHeaders(bad).limit, limitHeaders(keyed).limit, "on the anonymous plan, not the key's");
  const badMultichain = await request(`${url}/${CHAIN_ID}/api?module=block&action=eth_block_number&apikey=nope`);
  t.equal(badMultichain.status, 401, 'the multichain form refuses it, as API v2');

  const form = await request(`${url}/api`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `module=account&action=balance&address=${facts.accounts.alice}&apikey=k-metered`,
  });
  t.same([form.status, (form.json as { result: string }).result], [200, (await node.getBalance(facts.accounts.alice)).toString()], 'POST with a form body');
  t.ok(limitHeaders(form).credits < limitHeaders(again).credits, 'the apikey of a form body identifies the caller');
  const camel = await request(`${url}/api?module=block&action=eth_block_number&apiKey=k-metered`);
  t.equal(limitHeaders(form).credits - limitHeaders(camel).credits, 1, "apiKey (the etherscan-api client's spelling) is read as apikey");
  const camelForm = await request(`${url}/api`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'module=block&action=eth_block_number&apiKey=k-metered',
  });
  t.equal(limitHeaders(camel).credits - limitHeaders(camelForm).credits, 1, 'in a form body too');

  // the multichain form wants a key, as the multichain API v2 does
  const [keyless, keylessV2] = await Promise.all([request(`${url}/${CHAIN_ID}/api?module=block&action=eth_block_number`), request(`${url}/${CHAIN_ID}/api/v2/blocks`)]);
  t.same([keyless.status, keyless.json], [keylessV2.status, keylessV2.json], 'the multichain form without a key: as API v2');
  t.equal(keyless.status, 401, 'which is 401');
  // out of credits: the hosted gateway's 402 body, as for API v2
  const poor = `${url}/${CHAIN_ID}/api?module=block&action=eth_block_number&apikey=k-poor`;
  t.same((await request(poor)).status, 200, 'a poor key: first request');
  t.same((await request(`${url}/${CHAIN_ID}/api/v2/blocks?apikey=k-poor`)).status, 200, 'second (API v2)');
  const broke = await request(poor);
  t.same([broke.status, broke.json, limitHeaders(broke).credits], [402, { error: 'Out of credits' }, 0], 'third: 402 Out of credits');
  const legacy = await request(`${url}/${CHAIN_ID}/api/legacy/block/eth-block-number?id=9&apikey=k-metered`);
  t.same(legacy.json, { jsonrpc: '2.0', id: '9', result: `0x${head.toString(16)}` }, '/{chain_id}/api/legacy/block/eth-block-number');
  const block = await node.getBlock(head);
  const byTime = await request(`${url}/api/legacy/block/get-block-number-by-time?timestamp=${block?.timestamp}&closest=before`);
  t.same(byTime.json, { status: '1', message: 'OK', result: { blockNumber: String(head) } }, '/api/legacy/block/get-block-number-by-time');
  const logs = await request(`${url}/api/legacy/logs/get-logs?fromBlock=0&toBlock=latest&address=${facts.contracts.token}`);
  t.equal((logs.json as { result: unknown[] }).result.length, (await node.getLogs({ fromBlock: 0, toBlock: head, address: facts.contracts.token })).length, '/api/legacy/logs/get-logs');
  const missing = await request(`${url}/api?module=account`);
  t.same([missing.status, missing.json], [400, { status: '0', message: "Params 'module' and 'action' are required parameters", result: null }], 'no action: 400');
  const put = await request(`${url}/api?module=block&action=eth_block_number`, { method: 'PUT' });
  t.equal(put.status, 405, 'PUT: 405');
});
