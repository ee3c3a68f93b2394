/**
 * Decoding with the right ABI, against a real node: contracts compiled with the solc fixture,
 * deployed to anvil, called, indexed into every store (SCOUTKIT_STORES), one of them verified
 * with saveVerifiedContract. Then: `decoded_input` equals viem's decodeFunctionData with the
 * verified ABI (own and bytecode twin), every log's `decoded` equals decodeEventLog, a custom
 * error, a panic and an Error(string) revert are decoded, an unverified contract sharing a
 * verified method is decoded by the verified ABIs, an unverified contract's well-known method and
 * event are decoded by the signature table, an ERC-721's `transferFrom` is decoded as ERC-721, a
 * library user's ABI (`createExplorer({ abis })`) decodes what nothing else does, Etherscan's
 * `functionName` follows, a later verification takes over at once (its own ABI first), and the
 * answers validate against the official documents.
 */
import t from 'tap';
import { decodeEventLog, decodeFunctionData, encodeFunctionData, getAddress, toEventSelector, toFunctionSelector } from 'viem';
import type { Abi, AbiEvent, AbiFunction, AbiParameter } from 'viem';
import type { Address, Hex } from '../../lib/domain/records.ts';
import type { ChainConfig } from '../../lib/index.ts';
import type { JsonValue } from '../../lib/json.ts';
import { createExplorer, hex, saveVerifiedContract, toJson } from '../../lib/index.ts';
import { startAnvil } from '../../demo/anvil.ts';
import { build, deploy, standardJson } from '../adapters/solc/fixture.ts';
import { contractStoreBeside } from '../support/contracts.ts';
import { officialSpecs, validateResponse } from '../support/openapi.ts';
import { validatingExplorer } from '../support/openapiOurs.ts';
import { storeFactories } from '../support/stores.ts';
import { DEV_ACCOUNT0, indexerFor, rpc } from './helpers.ts';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity >=0.8.4;

contract Greeter {
    struct Note { uint256 id; string text; }
    string public greeting;
    uint256 public count;
    event GreetingChanged(address indexed by, string greeting, uint256 count);
    event Noted(uint256 indexed id, Note note, uint256[] tags);
    error TooLong(uint256 length, uint256 max);

    function setGreeting(string calldata _greeting) external {
        if (bytes(_greeting).length > 32) revert TooLong(bytes(_greeting).length, 32);
        greeting = _greeting;
        count += 1;
        emit GreetingChanged(msg.sender, _greeting, count);
    }
    function note(Note calldata n, uint256[] calldata tags) external { emit Noted(n.id, n, tags); }
    function divide(uint256 a, uint256 b) external { count = a / b; }
    function fail() external pure { require(false, "greeter: no"); }
}

contract Greeter2 {
    string public greeting;
    event GreetingChanged(address indexed by, string greeting, uint256 count);
    function setGreeting(string calldata g) external { greeting = g; emit GreetingChanged(msg.sender, g, 2); }
    function other() external pure returns (uint256) { return 2; }
}

contract Owned {
    address public owner;
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);
    constructor() { owner = msg.sender; }
    function transferOwnership(address newOwner) external { emit OwnershipTransferred(owner, newOwner); owner = newOwner; }
}

contract Nft {
    mapping(uint256 => address) public ownerOf;
    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    function mint(address to, uint256 tokenId) external { ownerOf[tokenId] = to; emit Transfer(address(0), to, tokenId); }
    function transferFrom(address from, address to, uint256 tokenId) external { ownerOf[tokenId] = to; emit Transfer(from, to, tokenId); }
}

contract Poker {
    event Poked(uint256 level);
    function poke(uint256 level) external { emit Poked(level); }
}
`;

const built = build(standardJson({ 'src/Greeter.sol': SOURCE }));
const artifact = (name: string): { abi: Abi; bytecode: string } => {
  const a = built[`src/Greeter.sol:${name}`];
  if (a === undefined) throw new Error(`no ${name}`);
  return a;
};
const GREETER = artifact('Greeter');
const POKER_ABI = artifact('Poker').abi;

type Body = Record<string, unknown>;
const BOB = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' as Address;

const anvil = await startAnvil();
t.teardown(() => anvil.stop());

async function send(to: Address, data: Hex): Promise<Hex> {
  const hash = (await rpc(anvil.url, 'eth_sendTransaction', [{ from: DEV_ACCOUNT0, to, data, gas: '0x200000' }])) as Hex;
  for (let i = 0; i < 400; i++) {
    if ((await rpc(anvil.url, 'eth_getTransactionReceipt', [hash])) !== null) return hash;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${hash} not mined`);
}
const call = (to: Address, abi: Abi, functionName: string, args: readonly unknown[]): Promise<Hex> =>
  send(to, hex(encodeFunctionData({ abi, functionName, args } as Parameters<typeof encodeFunctionData>[0])));

const greeter = await deploy(anvil.url, GREETER.bytecode);
const twin = await deploy(anvil.url, GREETER.bytecode);
const greeter2 = await deploy(anvil.url, artifact('Greeter2').bytecode);
const owned = await deploy(anvil.url, artifact('Owned').bytecode);
const nft = await deploy(anvil.url, artifact('Nft').bytecode);
const poker = await deploy(anvil.url, artifact('Poker').bytecode);
const G = GREETER.abi;
const txs = {
  set: await call(greeter.address, G, 'setGreeting', ['hello scout']),
  twinSet: await call(twin.address, G, 'setGreeting', ['hello twin']),
  note: await call(greeter.address, G, 'note', [{ id: 7n, text: 'seven' }, [1n, 2n, 3n]]),
  tooLong: await call(greeter.address, G, 'setGreeting', ['x'.repeat(40)]),
  panic: await call(greeter.address, G, 'divide', [1n, 0n]),
  fail: await call(greeter.address, G, 'fail', []),
  g2: await call(greeter2.address, artifact('Greeter2').abi, 'setGreeting', ['two']),
  owned: await call(owned.address, artifact('Owned').abi, 'transferOwnership', [BOB]),
  mint: await call(nft.address, artifact('Nft').abi, 'mint', [DEV_ACCOUNT0, 5n]),
  nftTransfer: await call(nft.address, artifact('Nft').abi, 'transferFrom', [DEV_ACCOUNT0, BOB, 5n]),
  poke: await call(poker.address, POKER_ABI, 'poke', [3n]),
};

/** What viem's decoders give, rendered as Blockscout renders values (decimal strings, checksummed addresses, tuples as arrays). */
function rendered(p: AbiParameter, v: unknown): unknown {
  if (p.type.endsWith(']')) return (v as readonly unknown[]).map((x) => rendered({ ...p, type: p.type.slice(0, p.type.lastIndexOf('[')) } as AbiParameter, x));
  if (p.type === 'tuple' && 'components' in p) return p.components.map((c) => rendered(c, (v as Record<string, unknown>)[c.name ?? '']));
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'boolean') return String(v);
  if (p.type === 'address') return getAddress(v as string);
  return v;
}
const sig = (name: string, params: readonly AbiParameter[], indexed: boolean): string =>
  `${name}(${params.map((p) => `${p.type}${indexed && 'indexed' in p && p.indexed === true ? ' indexed' : ''} ${p.name}`).join(', ')})`;

function expectedInput(abi: Abi, input: Hex): Body {
  const { functionName, args } = decodeFunctionData({ abi, data: input });
  const f = abi.find((i): i is AbiFunction => i.type === 'function' && i.name === functionName) as AbiFunction;
  return {
    method_call: sig(f.name, f.inputs, false),
    method_id: input.slice(2, 10),
    parameters: f.inputs.map((p, i) => ({ name: p.name, type: p.type, value: rendered(p, (args ?? [])[i]) })),
  };
}
function expectedLog(abi: Abi, topics: Hex[], data: Hex): Body {
  const { eventName, args } = decodeEventLog({ abi, topics: topics as [Hex, ...Hex[]], data });
  const e = abi.find((i): i is AbiEvent => i.type === 'event' && i.name === eventName) as AbiEvent;
  return {
    method_call: sig(e.name, e.inputs, true),
    method_id: (topics[0] as string).slice(2, 10),
    parameters: e.inputs.map((p) => ({ indexed: p.indexed ?? false, name: p.name, type: p.type, value: rendered(p, (args as unknown as Record<string, unknown>)[p.name ?? '']) })),
  };
}

const specs = await officialSpecs();

for (const factory of await storeFactories()) {
  await t.test(factory.name, async (t) => {
    const store = await factory.open();
    t.teardown(() => store.close());
    await indexerFor(anvil.url, store).run();
    const contracts = contractStoreBeside(store);
    const chain: ChainConfig = { store, contracts };
    await saveVerifiedContract(chain, {
      address: greeter.address,
      deployedBytecode: greeter.code,
      name: 'Greeter',
      compilerVersion: 'v0.8.24+commit.e11b9ed9',
      optimizationEnabled: true,
      optimizationRuns: 200,
      filePath: 'src/Greeter.sol',
      sources: { 'src/Greeter.sol': SOURCE },
      abi: G as unknown as readonly JsonValue[],
    });
    const plain = validatingExplorer(createExplorer({ chains: { '1': chain } }));
    const withAbis = createExplorer({ chains: { '1': chain }, abis: [POKER_ABI] });
    const get = async (path: string, ex: { handle: typeof plain.explorer.handle } = plain.explorer): Promise<Body> => {
      const r = await ex.handle({ path: `/api/v2${path}`, query: {} });
      t.equal(r.status, 200, `${path}: 200`);
      return JSON.parse(toJson(r.body)) as Body;
    };
    const official = (template: string, body: unknown, what: string): void => {
      if (specs !== null) t.same(validateResponse(specs, 'instance', template, 200, body), [], `${what}: the official document`);
    };
    const logsOf = async (hash: Hex): Promise<Body[]> => {
      const body = await get(`/transactions/${hash}/logs`);
      official('/transactions/{transaction_hash_param}/logs', body, `logs of ${hash}`);
      return body['items'] as Body[];
    };
    const inputOf = (hash: Hex): Promise<Hex> => rpc(anvil.url, 'eth_getTransactionByHash', [hash]).then((tx) => (tx as { input: Hex }).input);

    await t.test('the verified contract and its bytecode twin: decoded_input and logs as viem decodes them with the ABI', async (t) => {
      for (const hash of [txs.set, txs.twinSet, txs.note]) {
        const body = await get(`/transactions/${hash}`);
        official('/transactions/{transaction_hash_param}', body, hash);
        t.same(body['decoded_input'], expectedInput(G, await inputOf(hash)), `${hash}: decoded_input`);
        const logs = await logsOf(hash);
        t.ok(logs.length > 0, 'it logged');
        for (const log of logs) t.same(log['decoded'], expectedLog(G, (log['topics'] as (Hex | null)[]).filter((x): x is Hex => x !== null), log['data'] as Hex), `${hash} log ${String(log['index'])}: decoded`);
      }
      t.equal((await get(`/transactions/${txs.set}`))['method'], 'setGreeting', 'method: the name');
      const list = await get(`/addresses/${greeter.address}/transactions`);
      official('/addresses/{address_hash_param}/transactions', list, 'address transactions');
      const set = (list['items'] as Body[]).find((i) => i['hash'] === txs.set);
      t.equal(set?.['method'], 'setGreeting', 'lists name the method');
      t.same(set?.['decoded_input'], expectedInput(G, await inputOf(txs.set)), 'lists decode the input');
      t.same(set?.['revert_reason'], null, 'no revert');
    });

    await t.test('revert reasons: a custom error by the ABI, a panic with its meaning, Error(string)', async (t) => {
      const tooLong = await get(`/transactions/${txs.tooLong}`);
      official('/transactions/{transaction_hash_param}', tooLong, 'custom error');
      t.same(tooLong['revert_reason'], {
        method_call: 'TooLong(uint256 length, uint256 max)',
        method_id: toFunctionSelector('TooLong(uint256,uint256)').slice(2),
        parameters: [{ name: 'length', type: 'uint256', value: '40' }, { name: 'max', type: 'uint256', value: '32' }],
      });
      const panic = await get(`/transactions/${txs.panic}`);
      t.same(panic['revert_reason'], { method_call: 'Panic(uint256 code)', method_id: '4e487b71', parameters: [{ name: 'code', type: 'uint256', value: '18 (division or modulo by zero)' }] });
      const fail = await get(`/transactions/${txs.fail}`);
      t.same(fail['revert_reason'], { method_call: 'Error(string reason)', method_id: '08c379a0', parameters: [{ name: 'reason', type: 'string', value: 'greeter: no' }] });
      const list = await get(`/addresses/${greeter.address}/transactions`);
      const raw = (list['items'] as Body[]).find((i) => i['hash'] === txs.tooLong)?.['revert_reason'] as Body;
      t.match(raw, { raw: /^0x[0-9a-f]{8}/ }, 'lists: raw');
    });

    await t.test('an unverified contract sharing a verified method: decoded by the verified ABIs', async (t) => {
      const body = await get(`/transactions/${txs.g2}`);
      t.same(body['decoded_input'], expectedInput(G, await inputOf(txs.g2)), 'with the verified ABI (its parameter names)');
      t.equal(body['method'], 'setGreeting');
    });

    await t.test('an unverified contract: well-known methods and events from the signature table', async (t) => {
      const body = await get(`/transactions/${txs.owned}`);
      t.same(body['decoded_input'], { method_call: 'transferOwnership(address newOwner)', method_id: 'f2fde38b', parameters: [{ name: 'newOwner', type: 'address', value: getAddress(BOB) }] });
      t.equal(body['method'], 'transferOwnership');
      const [log] = await logsOf(txs.owned);
      t.same(log?.['decoded'], {
        method_call: 'OwnershipTransferred(address indexed previousOwner, address indexed newOwner)',
        method_id: toEventSelector('OwnershipTransferred(address,address)').slice(2, 10),
        parameters: [
          { indexed: true, name: 'previousOwner', type: 'address', value: getAddress(DEV_ACCOUNT0) },
          { indexed: true, name: 'newOwner', type: 'address', value: getAddress(BOB) },
        ],
      });
    });

    await t.test("an ERC-721's transferFrom is decoded as ERC-721", async (t) => {
      const body = await get(`/transactions/${txs.nftTransfer}`);
      t.same(body['decoded_input'], {
        method_call: 'transferFrom(address from, address to, uint256 tokenId)',
        method_id: '23b872dd',
        parameters: [
          { name: 'from', type: 'address', value: getAddress(DEV_ACCOUNT0) },
          { name: 'to', type: 'address', value: getAddress(BOB) },
          { name: 'tokenId', type: 'uint256', value: '5' },
        ],
      });
    });

    await t.test("a library user's ABIs: createExplorer({ abis })", async (t) => {
      const without = await get(`/transactions/${txs.poke}`);
      t.equal(without['decoded_input'], null, 'without: nothing decodes it');
      t.equal(without['method'], (await inputOf(txs.poke)).slice(0, 10), 'without: the selector');
      const withIt = await get(`/transactions/${txs.poke}`, withAbis);
      t.same(withIt['decoded_input'], expectedInput(POKER_ABI, await inputOf(txs.poke)));
      t.equal(withIt['method'], 'poke');
      const logs = (await get(`/transactions/${txs.poke}/logs`, withAbis))['items'] as Body[];
      t.same(logs[0]?.['decoded'], expectedLog(POKER_ABI, (logs[0]?.['topics'] as (Hex | null)[]).filter((x): x is Hex => x !== null), logs[0]?.['data'] as Hex));
    });

    await t.test("Etherscan txlist: functionName by the verified ABI and the signature table", async (t) => {
      const r = await plain.explorer.handle({ path: '/api', query: { module: 'account', action: 'txlist', address: DEV_ACCOUNT0, sort: 'asc' } });
      const rows = (JSON.parse(toJson(r.body)) as { result: Body[] }).result;
      const byHash = new Map(rows.map((row) => [row['hash'], row]));
      t.equal(byHash.get(txs.set)?.['functionName'], 'setGreeting(string _greeting)');
      t.equal(byHash.get(txs.set)?.['methodId'], (await inputOf(txs.set)).slice(0, 10));
      t.equal(byHash.get(txs.owned)?.['functionName'], 'transferOwnership(address newOwner)');
      t.equal(byHash.get(txs.poke)?.['functionName'], '', 'an unknown method: ""');
    });

    await t.test("a new verification: the contract's own ABI comes before every verified ABI, and answers see it at once", async (t) => {
      const G2 = artifact('Greeter2').abi;
      await saveVerifiedContract(chain, {
        address: greeter2.address,
        deployedBytecode: greeter2.code,
        name: 'Greeter2',
        compilerVersion: 'v0.8.24+commit.e11b9ed9',
        optimizationEnabled: true,
        optimizationRuns: 200,
        filePath: 'src/Greeter.sol',
        sources: { 'src/Greeter.sol': SOURCE },
        abi: G2 as unknown as readonly JsonValue[],
      });
      const body = await get(`/transactions/${txs.g2}`);
      t.same(body['decoded_input'], expectedInput(G2, await inputOf(txs.g2)), 'its own ABI (its parameter name `g`)');
      t.equal(((body['decoded_input'] as Body)['parameters'] as Body[])[0]?.['name'], 'g');
    });

    t.same(plain.failures, [], 'every answer validates against our document');
  });
}
