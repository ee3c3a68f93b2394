/**
 * Verified contracts as served, over every store (SCOUTKIT_STORES), through createExplorer with
 * a contract store beside the fixture chain's store and verifications saved by
 * saveVerifiedContract: `/smart-contracts/{h}` field for field (own, bytecode twin,
 * unverified), the list and counters, the languages, `is_verified` and the name on embedded
 * address objects and the address detail, getabi / getsourcecode / listcontracts, cached
 * answers that see a new verification, and the official documents' schemas.
 */
import t from 'tap';
import { decodeAbiParameters, encodeAbiParameters, getAddress } from 'viem';
import type { Address, Hash, Hex } from '../../../lib/domain/records.ts';
import type { ChainConfig } from '../../../lib/index.ts';
import { codeHashOf, createExplorer, hex, saveVerifiedContract, toJson } from '../../../lib/index.ts';
import { NoContractStoreError } from '../../../lib/contracts/save.ts';
import { loadFixtureChain } from '../../../fixture/index.ts';
import { FIXTURE_NOW } from '../../support/explorer.ts';
import { storeFactories } from '../../support/stores.ts';
import { contractStoreBeside } from '../../support/contracts.ts';
import { officialSpecs, validateResponse } from '../../support/openapi.ts';
import { validatingExplorer } from '../../support/openapiOurs.ts';

type Body = Record<string, unknown>;

const FIRST = '0x00000000000000000000000000000000000beef1' as Address;
const LIB = '0x00000000000000000000000000000000000001b1' as Address;
const HOUR = 3_600_000;

const ABI = [
  {
    type: 'constructor',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'owner', type: 'address', internalType: 'address' },
      { name: 'supply', type: 'uint256', internalType: 'uint256' },
      { name: 'label', type: 'string', internalType: 'string' },
      { name: 'live', type: 'bool', internalType: 'bool' },
      { name: 'roots', type: 'bytes32[]', internalType: 'bytes32[]' },
      { name: 'cfg', type: 'tuple', internalType: 'struct Usdx.Cfg', components: [{ name: 'fee', type: 'uint8', internalType: 'uint8' }, { name: 'sink', type: 'address', internalType: 'address' }] },
    ],
  },
  { type: 'function', name: 'totalSupply', stateMutability: 'view', inputs: [], outputs: [{ name: '', type: 'uint256', internalType: 'uint256' }] },
];
const SETTINGS = { optimizer: { enabled: true, runs: 999 }, evmVersion: 'shanghai', libraries: { 'src/Lib.sol': { Lib: LIB } } };

const factories = await storeFactories();
const specs = await officialSpecs();

for (const factory of factories) {
  await t.test(factory.name, async (t) => {
    const store = await factory.open();
    t.teardown(() => store.close());
    const { facts: f } = await loadFixtureChain(store);
    const contracts = contractStoreBeside(store);
    const chain: ChainConfig = { store, contracts };
    const { explorer: ex, failures, validated } = validatingExplorer(createExplorer({ chains: { '1': chain }, now: () => FIXTURE_NOW }));
    const get = async (path: string, query: Record<string, string> = {}): Promise<{ status: number; body: Body }> => {
      const r = await ex.handle({ path: `/api/v2${path}`, query });
      return { status: r.status, body: JSON.parse(toJson(r.body)) as Body };
    };
    const official = (template: string, body: unknown, what: string): void => {
      if (specs === null) return;
      t.same(validateResponse(specs, 'instance', template, 200, body), [], `${what}: the official document`);
    };
    const scan = async (query: Record<string, string>): Promise<{ status: number; body: Body }> => {
      const r = await ex.handle({ path: '/api', query });
      return { status: r.status, body: JSON.parse(toJson(r.body)) as Body };
    };

    const OWN = f.smartContracts.byTransaction;
    const TWIN = f.smartContracts.byFrame;
    const PLAIN = f.smartContracts.newestFirst.find((a) => a !== OWN && a !== TWIN) as Address;
    const codes = new Map((await store.getContracts([OWN, TWIN])).map((c) => [c.address, c]));
    const ownCode = codes.get(OWN)?.deployedBytecode as Hex;
    const twinCode = codes.get(TWIN)?.deployedBytecode as Hex;
    const alice = f.eoas.alice;
    const CTOR = ABI[0]?.inputs ?? [];
    const roots = [`0x${'ab'.repeat(32)}`, `0x${'00'.repeat(31)}01`] as const;
    const sink = f.eoas.bob;
    const args = hex(encodeAbiParameters(CTOR, [alice, 10n ** 21n, 'Usdx ✓', true, roots, { fee: 3, sink }]));
    t.same(
      decodeAbiParameters(CTOR, args),
      [getAddress(alice), 10n ** 21n, 'Usdx ✓', true, roots, { fee: 3, sink: getAddress(sink) }],
      'viem decodes the stored constructor arguments to these values (rendered below in Blockscout\'s shape)',
    );

    const before = await get(`/smart-contracts/${OWN}`);
    t.equal(before.body['is_verified'], false, 'before any verification: unverified (and now cached)');
    t.same((await get('/config/smart-contracts/languages')).body, { languages: ['solidity', 'vyper', 'yul'] }, 'languages: as Blockscout lists them, with a contract store');

    await t.rejects(saveVerifiedContract({ store } as ChainConfig, { address: OWN, deployedBytecode: ownCode, name: 'X', compilerVersion: 'v0.8.24', optimizationEnabled: false, filePath: 'a', sources: { a: '' }, abi: [] }), NoContractStoreError, 'no contract store: a clear error');
    const own = await saveVerifiedContract(chain, {
      address: OWN.toUpperCase().replace('0X', '0x'),
      deployedBytecode: ownCode,
      name: 'Usdx',
      compilerVersion: 'v0.8.24+commit.e11b9ed9',
      optimizationEnabled: true,
      optimizationRuns: 999,
      evmVersion: 'shanghai',
      compilerSettings: SETTINGS,
      codeFormat: 'standard-json',
      filePath: 'src/Usdx.sol',
      sources: { 'src/Usdx.sol': 'contract Usdx {}', 'src/Lib.sol': 'library Lib {}' },
      abi: ABI,
      libraries: { 'src/Lib.sol:Lib': LIB },
      constructorArguments: args,
      licenseType: 'mit',
      verifiedAt: FIXTURE_NOW - HOUR,
      hasImmutables: true,
    });
    t.ok(own.saved, 'saved');
    t.equal(own.contract.codeHash, codeHashOf(ownCode), 'keyed by the keccak256 of the runtime code');
    await saveVerifiedContract(chain, {
      address: FIRST,
      codeHash: codeHashOf(twinCode) as Hash,
      name: 'Factory_Child',
      language: 'yul',
      compilerVersion: 'v0.8.20+commit.a1b79de6',
      optimizationEnabled: false,
      codeFormat: 'single-file',
      filePath: 'Factory_Child.yul',
      sources: { 'Factory_Child.yul': 'object "Child" {}' },
      abi: [],
      match: 'partial',
      verifiedAt: FIXTURE_NOW - 48 * HOUR,
    });

    await t.test('/smart-contracts/{h}: its own verification, every field', async (t) => {
      const { status, body } = await get(`/smart-contracts/${OWN}`);
      t.equal(status, 200);
      t.same(body, {
        verified_twin_address_hash: null,
        is_verified: true,
        is_changed_bytecode: false,
        is_partially_verified: false,
        is_fully_verified: true,
        is_verified_via_sourcify: false,
        is_verified_via_eth_bytecode_db: false,
        is_verified_via_verifier_alliance: false,
        proxy_type: null,
        implementations: [],
        conflicting_implementations: null,
        sourcify_repo_url: null,
        can_be_visualized_via_sol2uml: false,
        name: 'Usdx',
        compiler_version: 'v0.8.24+commit.e11b9ed9',
        optimization_enabled: true,
        optimization_runs: 999,
        evm_version: 'shanghai',
        verified_at: '2023-11-14T23:05:00.000000Z',
        abi: ABI,
        source_code: 'contract Usdx {}',
        file_path: 'src/Usdx.sol',
        additional_sources: [{ file_path: 'src/Lib.sol', source_code: 'library Lib {}' }],
        compiler_settings: SETTINGS,
        external_libraries: [{ name: 'src/Lib.sol:Lib', address_hash: getAddress(LIB) }],
        constructor_args: args,
        decoded_constructor_args: [
          [getAddress(alice), CTOR[0]],
          ['1000000000000000000000', CTOR[1]],
          ['Usdx ✓', CTOR[2]],
          ['true', CTOR[3]],
          [[...roots], CTOR[4]],
          [['3', getAddress(sink)], CTOR[5]],
        ],
        language: 'solidity',
        license_type: 'mit',
        certified: false,
        is_blueprint: false,
        deployed_bytecode: ownCode,
        creation_bytecode: before.body['creation_bytecode'],
        creation_status: 'success',
      }, 'Blockscout\'s verified shape; the cached unverified answer is gone');
      official('/smart-contracts/{address_hash_param}', body, 'own');
      if (specs !== null) {
        const multi = await ex.handle({ path: `/1/api/v2/smart-contracts/${OWN}`, query: {} });
        t.same(validateResponse(specs, 'pro', '/smart-contracts/{address_hash_param}', 200, JSON.parse(toJson(multi.body))), [], 'own, multichain form: the Pro API document');
      }
    });

    await t.test('/smart-contracts/{h}: a bytecode twin', async (t) => {
      const { body } = await get(`/smart-contracts/${TWIN}`);
      t.same(
        [body['is_verified'], body['verified_twin_address_hash'], body['name'], body['language'], body['is_partially_verified'], body['is_fully_verified'], body['constructor_args'], body['decoded_constructor_args']],
        [false, getAddress(FIRST), 'Factory_Child', 'yul', false, false, null, null],
        'is_verified false, the verified address, the twin\'s name and language, no constructor arguments, no verification flags of its own',
      );
      t.same([body['file_path'], body['source_code'], body['additional_sources'], body['optimization_runs'], body['evm_version'], body['deployed_bytecode']], [null, 'object "Child" {}', [], null, 'default', twinCode], 'a flattened verification: no file path; no runs without the optimizer');
      official('/smart-contracts/{address_hash_param}', body, 'twin');
      const plain = await get(`/smart-contracts/${PLAIN}`);
      t.same(Object.keys(plain.body).sort(), ['conflicting_implementations', 'creation_bytecode', 'creation_status', 'deployed_bytecode', 'implementations', 'is_verified', 'proxy_type'], 'no verified code: the unverified shape');
    });

    await t.test('/smart-contracts and counters', async (t) => {
      const all = await get('/smart-contracts');
      const items = all.body['items'] as Body[];
      t.same(items.map((i) => (i['address'] as Body)['hash']), [getAddress(FIRST), getAddress(OWN)], 'verified contracts only, newest verification first (twins not listed)');
      t.same(items[1], {
        address: { ...(items[1]?.['address'] as Body), hash: getAddress(OWN), is_verified: true, name: 'Usdx', is_contract: true },
        compiler_version: 'v0.8.24+commit.e11b9ed9',
        optimization_enabled: true,
        language: 'solidity',
        verified_at: '2023-11-14T23:05:00.000000Z',
        has_constructor_args: true,
        license_type: 'mit',
        certified: false,
        reputation: 'ok',
        coin_balance: null,
        transactions_count: null,
        market_cap: null,
      }, 'an item: the compiler facts, the address verified and named');
      t.same((items[0]?.['address'] as Body)['is_verified'], true, 'the first verified address, even unknown to the indexer');
      official('/smart-contracts', all.body, 'list');
      const first = await get('/smart-contracts', { items_count: '1', q: '' });
      t.same(first.body['next_page_params'], { q: '', smart_contract_id: own.contract.id + 1, items_count: 1 }, 'paged by smart_contract_id');
      const second = await get('/smart-contracts', { items_count: '1', q: '', smart_contract_id: String(own.contract.id + 1) });
      t.same([(second.body['items'] as Body[]).map((i) => (i['address'] as Body)['hash']), second.body['next_page_params']], [[getAddress(OWN)], null], 'the next page, the last');
      t.same(((await get('/smart-contracts', { q: 'usd' })).body['items'] as Body[]).length, 1, 'q: the name, any case');
      t.same(((await get('/smart-contracts', { q: 'BEEF1' })).body['items'] as Body[]).length, 1, 'q: the address text');
      t.same(((await get('/smart-contracts', { filter: 'yul' })).body['items'] as Body[]).map((i) => i['language']), ['yul'], 'filter: a language');
      t.same((await get('/smart-contracts', { filter: 'vyper' })).body, { items: [], next_page_params: null }, 'filter: none in vyper');
      const counters = await get('/smart-contracts/counters');
      t.same([counters.body['verified_smart_contracts'], counters.body['new_verified_smart_contracts_24h']], ['2', '1'], 'verified: all, and in the 24 h before the explorer\'s clock');
      official('/smart-contracts/counters', counters.body, 'counters');
    });

    await t.test('embedded address objects and the address detail', async (t) => {
      const tx = await get(`/transactions/${f.transactions.contractCreation}`);
      const created = tx.body['created_contract'] as Body;
      t.same([created['hash'], created['is_verified'], created['name']], [getAddress(OWN), true, 'Usdx'], 'a transaction\'s created contract: verified, named after the contract');
      const page = await get(`/blocks/${tx.body['block_number'] as number}/transactions`);
      const row = (page.body['items'] as Body[]).find((i) => i['hash'] === f.transactions.contractCreation);
      t.same([(row?.['created_contract'] as Body)['is_verified'], (row?.['created_contract'] as Body)['name']], [true, 'Usdx'], 'in a list page too');
      const frame = await get(`/transactions/${f.transactions.createdByContract}/internal-transactions`);
      const twinRow = (frame.body['items'] as Body[]).find((i) => (i['created_contract'] as Body | null)?.['hash'] === getAddress(TWIN));
      t.equal((twinRow?.['created_contract'] as Body)['is_verified'], false, 'a bytecode twin stays unverified in address objects');
      const detail = await get(`/addresses/${OWN}`);
      t.same([detail.body['is_verified'], detail.body['name']], [true, 'Usdx'], 'the address detail');
      t.equal((await get(`/addresses/${TWIN}`)).body['is_verified'], false, 'a twin\'s detail');
    });

    await t.test('Etherscan: getabi, getsourcecode, listcontracts', async (t) => {
      t.same((await scan({ module: 'contract', action: 'getabi', address: OWN })).body, { status: '1', message: 'OK', result: JSON.stringify(ABI) }, 'getabi: the ABI as a JSON string');
      t.same((await scan({ module: 'contract', action: 'getabi', address: TWIN })).body, { status: '1', message: 'OK', result: '[]' }, 'getabi: a twin\'s ABI (as Blockscout)');
      t.same((await scan({ module: 'contract', action: 'getabi', address: PLAIN })).body, { status: '0', message: 'NOTOK', result: 'Contract source code not verified' }, 'getabi: unverified, Etherscan\'s answer');
      const src = (await scan({ module: 'contract', action: 'getsourcecode', address: OWN.toUpperCase().replace('0X', '0x') })).body;
      t.same(src, {
        status: '1',
        message: 'OK',
        result: [
          {
            Address: OWN,
            SourceCode: `{${JSON.stringify({ language: 'Solidity', sources: { 'src/Usdx.sol': { content: 'contract Usdx {}' }, 'src/Lib.sol': { content: 'library Lib {}' } }, settings: SETTINGS })}}`,
            ABI: JSON.stringify(ABI),
            ContractName: 'Usdx',
            CompilerVersion: 'v0.8.24+commit.e11b9ed9',
            OptimizationUsed: 'true',
            OptimizationRuns: 999,
            EVMVersion: 'shanghai',
            FileName: 'src/Usdx.sol',
            ConstructorArguments: args.slice(2),
            ExternalLibraries: [{ name: 'src/Lib.sol:Lib', address_hash: LIB }],
            AdditionalSources: [{ Filename: 'src/Lib.sol', SourceCode: 'library Lib {}' }],
            CompilerSettings: SETTINGS,
            IsProxy: 'false',
          },
        ],
      }, 'getsourcecode: Blockscout\'s keys, SourceCode in Etherscan\'s {{…}} form');
      const inner = JSON.parse(((src['result'] as Body[])[0]?.['SourceCode'] as string).slice(1, -1)) as Body;
      t.same(Object.keys(inner['sources'] as Body), ['src/Usdx.sol', 'src/Lib.sol'], 'the double braces hold standard JSON');
      const twinSrc = ((await scan({ module: 'contract', action: 'getsourcecode', address: TWIN })).body['result'] as Body[])[0];
      t.same([twinSrc?.['SourceCode'], twinSrc?.['FileName'], twinSrc?.['OptimizationUsed'], 'OptimizationRuns' in (twinSrc ?? {})], ['object "Child" {}', '', 'false', false], 'a flattened twin: the file itself, no runs');
      const plain = ((await scan({ module: 'contract', action: 'getsourcecode', address: PLAIN })).body['result'] as Body[])[0];
      t.same([plain?.['SourceCode'], plain?.['ABI']], ['', 'Contract source code not verified'], 'getsourcecode: unverified');

      const verifiedRows = (await scan({ module: 'contract', action: 'listcontracts', filter: 'verified' })).body['result'] as Body[];
      t.same(verifiedRows, [
        { Address: OWN, ABI: JSON.stringify(ABI), ContractName: 'Usdx', CompilerVersion: 'v0.8.24+commit.e11b9ed9', OptimizationUsed: '1' },
        { Address: FIRST, ABI: '[]', ContractName: 'Factory_Child', CompilerVersion: 'v0.8.20+commit.a1b79de6', OptimizationUsed: '0' },
      ], 'listcontracts verified: oldest verification first');
      const since = Math.floor((FIXTURE_NOW - 2 * HOUR) / 1000);
      t.same(((await scan({ module: 'contract', action: 'listcontracts', filter: '1', verified_at_start_timestamp: String(since) })).body['result'] as Body[]).map((r) => r['Address']), [OWN], 'verified since a time');
      const unverified = (await scan({ module: 'contract', action: 'listcontracts', filter: 'unverified', offset: '10000' })).body['result'] as Body[];
      t.equal(unverified.length, f.smartContracts.count - 1, 'unverified: every created contract but the one verified at its address');
      t.ok(unverified.some((r) => r['Address'] === TWIN) && !unverified.some((r) => r['Address'] === OWN), 'a twin is unverified');
      const everything = (await scan({ module: 'contract', action: 'listcontracts', offset: '10000' })).body['result'] as Body[];
      t.same([everything.length, everything.find((r) => r['Address'] === OWN)?.['ContractName']], [f.smartContracts.count, 'Usdx'], 'no filter: every created contract, verified ones with their facts');
      const paged = (await scan({ module: 'contract', action: 'listcontracts', page: '2', offset: '1' })).body['result'] as Body[];
      t.same(paged, everything.slice(1, 2), 'page and offset');
      t.same(await scan({ module: 'contract', action: 'listcontracts', filter: 'nope' }), {
        status: 400,
        body: { status: '0', message: 'nope is not a valid value for `filter`. Please use one of: verified, unverified, 1, 2.', result: null },
      }, 'a bad filter: HTTP 400');
    });

    t.same(failures, [], `every answer validates against our document (${validated()} answers)`);
  });
}
