/**
 * The verification flow through the explorer's public entry (`handle`), over every store
 * (SCOUTKIT_STORES), with the solc verifier as on a machine without network (an empty compiler
 * directory, a download base that refuses: npm's solc serves its own version):
 * Etherscan's verifysourcecode → checkverifystatus until `Pass - Verified`, then getabi,
 * getsourcecode and `/smart-contracts/{h}` show it; a bytecode twin and a second submission are
 * already verified; not a contract, an unknown UID, a mismatch and a missing compiler fail with
 * their texts; the same submission runs once; another host sharing the database reads the job
 * (SQL stores); API v2's config and `verification/via/flattened-code`, its 404/422/413 and
 * Blockscout's 200 messages.
 */
import { rm } from 'node:fs/promises';
import t from 'tap';
import { createSolcVerifier } from '../../../adapters/solc/index.ts';
import { createExplorer, jsonBody, toJson } from '../../../lib/index.ts';
import type { ChainConfig, Explorer, RequestBody } from '../../../lib/index.ts';
import { contractStoreBeside } from '../../support/contracts.ts';
import { validateOurs } from '../../support/openapiOurs.ts';
import { storeFactories } from '../../support/stores.ts';
import {
  ACCOUNT,
  compilerVersion,
  COUNTER,
  COUNTER_ADDRESS,
  emptyCompilerDir,
  ODD_ADDRESS,
  offlineCompilers,
  TOKEN_ADDRESS,
  TOKEN_INPUT,
  TOKEN_TWIN,
  tokenArgs,
  writeVerifiableChain,
} from '../../support/verification.ts';

type Body = Record<string, unknown>;

const dir = await emptyCompilerDir();
const verifier = createSolcVerifier({ compilers: offlineCompilers(dir), size: 1 });
t.teardown(async () => {
  await verifier.close();
  await rm(dir, { recursive: true, force: true });
});

const VERSION = compilerVersion();

async function scan(ex: Explorer, query: Record<string, string>): Promise<Body> {
  const r = await ex.handle({ path: '/api', query });
  // every answer of the dialect's contract actions is HTTP 200, as Blockscout's
  if (r.status !== 200) throw new Error(`${query['action']}: HTTP ${r.status} ${toJson(r.body)}`);
  return JSON.parse(toJson(r.body)) as Body;
}

async function v2(ex: Explorer, path: string, body?: RequestBody): Promise<{ status: number; body: Body }> {
  const r = await ex.handle({ path: `/api/v2${path}`, ...(body === undefined ? {} : { method: 'POST', body }) });
  return { status: r.status, body: JSON.parse(toJson(r.body)) as Body };
}

/** Poll checkverifystatus until it is no longer pending (forge and hardhat poll the same way). */
async function settle(ex: Explorer, guid: string): Promise<Body> {
  for (let i = 0; i < 600; i++) {
    const status = await scan(ex, { module: 'contract', action: 'checkverifystatus', guid });
    if (status['result'] !== 'Pending in queue') return status;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${guid} still pending`);
}

const submitToken = (address: string, extra: Record<string, string> = {}): Record<string, string> => ({
  module: 'contract',
  action: 'verifysourcecode',
  apikey: 'api_key',
  codeformat: 'solidity-standard-json-input',
  contractaddress: address,
  sourceCode: TOKEN_INPUT,
  contractname: 'src/Token.sol:Token',
  compilerversion: VERSION,
  ...extra,
});

for (const factory of await storeFactories()) {
  await t.test(factory.name, async (t) => {
    const store = await factory.open();
    t.teardown(() => store.close());
    const { token } = await writeVerifiableChain(store);
    const contracts = contractStoreBeside(store);
    const chain: ChainConfig = { store, contracts, verifier };
    const ex = createExplorer({ chains: { '1': chain } });

    await t.test('API v2 verification config', async (t) => {
      const config = await v2(ex, '/smart-contracts/verification/config');
      t.equal(config.status, 200);
      t.same(config.body['verification_options'], ['flattened-code', 'standard-input', 'multi-part'], 'the methods served');
      t.ok((config.body['solidity_compiler_versions'] as string[]).some((v) => VERSION.startsWith(v)), 'the compiler in the directory is listed');
      t.same(config.body['vyper_compiler_versions'], [], 'no Vyper compiler');
      t.equal((config.body['license_types'] as Record<string, number>)['mit'], 3, "Blockscout's license numbers");
      t.equal(config.body['is_rust_verifier_microservice_enabled'], false);
      t.same(validateOurs('instance', '/smart-contracts/verification/config', 200, config.body), [], 'our OpenAPI document');
      const none = await v2(createExplorer({ chains: { '1': { store, contracts } } }), '/smart-contracts/verification/config');
      t.same(none.body['verification_options'], [], 'no verifier: no method');
    });

    await t.test('Etherscan: verifysourcecode → checkverifystatus → the contract served', async (t) => {
      const before = await scan(ex, { module: 'contract', action: 'getabi', address: TOKEN_ADDRESS });
      t.same(before, { status: '0', message: 'NOTOK', result: 'Contract source code not verified' }, 'not verified yet (forge checks this first)');

      // hardhat-verify 2's form: the misspelled key only
      const submitted = await scan(ex, submitToken(TOKEN_ADDRESS, { constructorArguements: tokenArgs().slice(2) }));
      t.equal(submitted['status'], '1');
      const guid = submitted['result'] as string;
      t.match(guid, /^[0-9a-f]{40}[0-9a-f]+$/, 'a GUID: the address, then the time, in hex');
      t.equal(guid.slice(0, 40), TOKEN_ADDRESS.slice(2), 'it starts with the address, as Blockscout');
      const again = await scan(ex, submitToken(TOKEN_ADDRESS, { constructorArguements: tokenArgs().slice(2) }));
      t.same(again, submitted, 'the same submission while pending: the same job (it runs once)');

      t.same(await settle(ex, guid), { status: '1', message: 'OK', result: 'Pass - Verified' }, 'Pass - Verified');

      const abi = await scan(ex, { module: 'contract', action: 'getabi', address: TOKEN_ADDRESS });
      t.same([abi['status'], JSON.parse(abi['result'] as string)], ['1', token.abi], 'getabi: the compiled ABI');
      const source = await scan(ex, { module: 'contract', action: 'getsourcecode', address: TOKEN_ADDRESS });
      const item = (source['result'] as Body[])[0] as Body;
      t.equal(item['ContractName'], 'Token');
      t.equal(item['CompilerVersion'], VERSION);
      t.equal(item['FileName'], 'src/Token.sol');
      t.equal(item['ConstructorArguments'], tokenArgs().slice(2), 'the constructor arguments as given');
      t.equal(item['OptimizationUsed'], 'true');
      t.equal(item['EVMVersion'], 'cancun');
      const contract = await v2(ex, `/smart-contracts/${TOKEN_ADDRESS}`);
      t.same(
        [contract.body['is_verified'], contract.body['name'], contract.body['language'], contract.body['license_type'], contract.body['file_path']],
        [true, 'Token', 'solidity', 'mit', 'src/Token.sol'],
        '/smart-contracts/{h}: verified, its name, language, license (SPDX), file',
      );
      t.same(contract.body['abi'], token.abi);

      t.same(
        await scan(ex, submitToken(TOKEN_ADDRESS)),
        { status: '0', message: 'Smart-contract already verified.', result: 'Smart-contract already verified.' },
        'submitted again: already verified (forge and hardhat read this as success)',
      );
      t.same(
        (await scan(ex, submitToken(TOKEN_TWIN)))['result'],
        'Smart-contract already verified.',
        'a bytecode twin: already verified (its code is)',
      );
      t.same(await v2(ex, `/smart-contracts/${TOKEN_ADDRESS}/verification/via/flattened-code`, jsonBody({ compiler_version: VERSION, source_code: 'x' })), {
        status: 200,
        body: { message: 'Already verified' },
      }, 'API v2: Already verified');

      t.same(await scan(ex, { module: 'contract', action: 'verifyproxycontract', address: COUNTER_ADDRESS }), {
        status: '0',
        message: 'Smart-contract not found or is not verified',
        result: 'Smart-contract not found or is not verified',
      }, 'verifyproxycontract: the proxy must be verified');
      const proxyGuid = (await scan(ex, { module: 'contract', action: 'verifyproxycontract', address: TOKEN_ADDRESS }))['result'] as string;
      let proxy: Body = {};
      for (let i = 0; i < 200; i++) {
        proxy = await scan(ex, { module: 'contract', action: 'checkproxyverification', guid: proxyGuid });
        if (proxy['result'] !== 'Verification in progress') break;
        await new Promise((r) => setTimeout(r, 20));
      }
      t.same(proxy, { status: '0', message: 'NOTOK', result: 'A corresponding implementation contract was unfortunately not detected for the proxy address.' }, 'no implementation found (no node here)');
      t.same((await scan(ex, { module: 'contract', action: 'checkverifystatus', guid: proxyGuid }))['result'], 'Unknown UID', "a proxy check's GUID is no verification's");
      // a node answering the EIP-1967 implementation slot
      const impl = '0x00000000000000000000000000000000000001a1';
      const node = {
        forward: async (call: { readonly method: string; readonly params: readonly unknown[] }) =>
          call.method === 'eth_getStorageAt' && call.params[1] === '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc'
            ? { result: `0x${impl.slice(2).padStart(64, '0')}` }
            : { result: `0x${'0'.repeat(64)}` },
      };
      const withNode = createExplorer({ chains: { '1': { ...chain, node } } });
      const recheck = (await scan(withNode, { module: 'contract', action: 'verifyproxycontract', address: TOKEN_ADDRESS }))['result'] as string;
      t.equal(recheck, proxyGuid, 'checked again: the same job, run again');
      for (let i = 0; i < 200; i++) {
        proxy = await scan(withNode, { module: 'contract', action: 'checkproxyverification', guid: recheck });
        if (proxy['result'] !== 'Verification in progress') break;
        await new Promise((r) => setTimeout(r, 20));
      }
      t.same(proxy, { status: '1', message: 'OK', result: `The proxy's (${TOKEN_ADDRESS}) implementation contract is found at ${impl} and is successfully updated.` }, 'the implementation read from the EIP-1967 slot');

      if (factory.name !== 'memory') {
        // another host: its own contract store over the same database, no verifier of its own
        const other = createExplorer({ chains: { '1': { store, contracts: contractStoreBeside(store) } } });
        t.same((await scan(other, { module: 'contract', action: 'checkverifystatus', guid }))['result'], 'Pass - Verified', 'another host sharing the database reads the job');
      }
    });

    await t.test('Etherscan: refusals and failures', async (t) => {
      t.same(
        await scan(ex, submitToken(ACCOUNT)),
        { status: '0', message: 'The address is not a smart contract', result: 'The address is not a smart contract' },
        'an account',
      );
      t.same(await scan(ex, { module: 'contract', action: 'checkverifystatus', guid: 'nope' }), { status: '1', message: 'OK', result: 'Unknown UID' }, 'an unknown UID');
      t.same((await scan(ex, { module: 'contract', action: 'checkverifystatus' }))['status'], '0', 'no guid: status 0');
      t.same(await scan(ex, { ...submitToken(ODD_ADDRESS), codeformat: 'vyper-json' }), { status: '0', message: 'Missing codeformat field', result: 'Missing codeformat field' }, 'an unknown codeformat');
      const missing = { ...submitToken(ODD_ADDRESS) };
      delete missing['sourceCode'];
      t.same((await scan(ex, missing))['message'], 'Missing sourceCode or contractaddress fields');
      t.same((await scan(ex, submitToken('0x123')))['result'], 'Invalid address hash');
      t.same((await scan(ex, submitToken(ODD_ADDRESS, { compilerversion: 'latest' })))['status'], '0', 'a compiler version that is no version: refused at once');
      t.same((await scan(ex, { ...submitToken(ODD_ADDRESS), codeformat: 'solidity-single-file', optimizationUsed: 'maybe' }))['result'], 'optimizationUsed has invalid format');

      const mismatch = await scan(ex, submitToken(ODD_ADDRESS));
      const failed = await settle(ex, mismatch['result'] as string);
      t.same([failed['status'], failed['message'], failed['result']], ['1', 'OK', 'Fail - Unable to verify'], "a mismatch: Blockscout's failure (status 1)");
      t.match(failed['reason'], /does not match the deployed code/, 'and why, beside it');
      const rerun = await scan(ex, submitToken(ODD_ADDRESS));
      t.equal(rerun['result'], mismatch['result'], 'submitted again after a failure: the same job, run again');
      t.equal((await settle(ex, rerun['result'] as string))['result'], 'Fail - Unable to verify');

      const noCompiler = await scan(ex, submitToken(ODD_ADDRESS, { compilerversion: 'v0.8.99+commit.deadbeef' }));
      const missingCompiler = await settle(ex, noCompiler['result'] as string);
      t.match(missingCompiler, { status: '1', message: 'OK' }, 'a compiler not at hand: a failure');
      t.match(missingCompiler['result'], /^Fail - Unable to verify: Compiler v0\.8\.99\+commit\.deadbeef is not available \(cannot reach http:\/\/127\.0\.0\.1:2\/list\.json/, 'the result says why (forge shows only the result)');
      t.match(missingCompiler['result'], /put soljson-v0\.8\.99\+commit\.deadbeef\.js .* or compile with v0\.8\.\d+ \(at hand without a download\)/, 'and what to do');
      t.equal(missingCompiler['reason'], missingCompiler['result'], 'reason: the same text');

      // a verifier whose queue is full: refused at once, in both dialects
      const busy = createExplorer({ chains: { '1': { store, contracts, verifier: { verify: () => Promise.reject(new Error('never called')), busy: () => true, close: async () => {} } } } });
      t.same(await scan(busy, submitToken(ODD_ADDRESS, { contractname: 'src/Token.sol:Busy' })), {
        status: '0',
        message: 'The verification queue is full: try again later',
        result: 'The verification queue is full: try again later',
      }, 'a full queue: busy, at once');
      const busyV2 = await v2(busy, `/smart-contracts/${ODD_ADDRESS}/verification/via/flattened-code`, jsonBody({ compiler_version: VERSION, source_code: COUNTER }));
      t.same([busyV2.status, busyV2.body], [503, { message: 'The verification queue is full: try again later' }], 'API v2: 503');

      const unavailable = await scan(createExplorer({ chains: { '1': { store, contracts } } }), submitToken(ODD_ADDRESS));
      t.equal(unavailable['status'], '0', 'no verifier: refused');
      t.match(unavailable['result'], /not available on this server.*solc/, 'saying why');
    });

    await t.test('API v2: verification via flattened code, and bad input', async (t) => {
      const path = `/smart-contracts/${COUNTER_ADDRESS}/verification/via/flattened-code`;
      t.same((await v2(ex, path, jsonBody({ compiler_version: VERSION }))).status, 422, 'no source_code: 422');
      const missing = await v2(ex, path, jsonBody({ source_code: COUNTER }));
      t.same([missing.status, missing.body], [422, { errors: [{ title: 'Invalid value', source: { pointer: '/compiler_version' }, detail: 'Missing field: compiler_version' }] }], 'no compiler_version: 422 naming it');
      t.equal((await v2(ex, path, { type: 'json', value: 'junk', size: 4 })).status, 422, 'junk: 422');
      const huge = await v2(ex, path, { type: 'json', value: { compiler_version: VERSION, source_code: COUNTER }, size: 20 * 1024 * 1024 + 1 });
      t.same([huge.status, huge.body], [413, { message: `Request body too large: at most ${20 * 1024 * 1024} bytes` }], 'over 20 MB: 413');
      t.same(await v2(ex, `/smart-contracts/${ACCOUNT}/verification/via/flattened-code`, jsonBody({ compiler_version: VERSION, source_code: COUNTER })), {
        status: 404,
        body: { message: 'Address is not a smart-contract' },
      }, 'an account: 404');
      t.same(
        (await v2(ex, `/smart-contracts/${ODD_ADDRESS}/verification/via/standard-input`, { type: 'multipart', value: { compiler_version: VERSION }, size: 100 })).body,
        { message: 'JSON files not found' },
        'standard-input without a JSON file',
      );
      const junkFile = { filename: 'input.json', contentType: 'application/json', content: new TextEncoder().encode('{junk') };
      t.same(
        (await v2(ex, `/smart-contracts/${ODD_ADDRESS}/verification/via/standard-input`, { type: 'multipart', value: { compiler_version: VERSION, 'files[0]': junkFile }, size: 100 })).body,
        { message: 'Error while reading JSON file' },
        'a JSON file that does not parse',
      );
      t.same(
        (await v2(ex, `/smart-contracts/${ODD_ADDRESS}/verification/via/multi-part`, { type: 'multipart', value: { compiler_version: VERSION, libraries: '{nope', 'files[0]': { filename: 'A.sol', contentType: 'text/plain', content: new Uint8Array([32]) } }, size: 100 })).body,
        { message: 'Libraries are not valid JSON map' },
        'multi-part libraries that are no JSON map',
      );

      const started = await v2(ex, path, jsonBody({ compiler_version: VERSION, source_code: COUNTER, contract_name: 'Counter', is_optimization_enabled: true, optimization_runs: 200 }));
      t.same([started.status, started.body], [200, { message: 'Smart-contract verification started' }], 'started');
      let contract: Body = {};
      for (let i = 0; i < 600 && contract['is_verified'] !== true; i++) {
        await new Promise((r) => setTimeout(r, 50));
        contract = (await v2(ex, `/smart-contracts/${COUNTER_ADDRESS}`)).body;
      }
      t.same([contract['is_verified'], contract['name'], contract['file_path'], contract['compiler_settings']], [true, 'Counter', null, null], 'the result read from the contract (flattened: no file path, no settings kept)');
      t.equal(contract['source_code'], COUNTER, 'its source as sent');
    });
  });
}
