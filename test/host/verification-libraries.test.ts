/**
 * `external_libraries` over HTTP, as Blockscout shows it (`[{name, address_hash}]`, checksummed)
 * for a contract linked to a library, on every verification path: Etherscan's standard JSON with
 * `settings.libraries` (forge `--libraries`: solc links it, no link reference is left), its
 * single-file form with `libraryname1`/`libraryaddress1`, API v2's flattened code with its
 * `libraries` object and its standard-input file; read back from `/smart-contracts/{h}` and
 * getsourcecode's `ExternalLibraries`. The verifier runs as on a machine without network (an
 * empty compiler directory, a download base that refuses).
 */
import t from 'tap';
import type { Test } from 'tap';
import { getAddress } from 'viem';
import { createMemoryContractStore, createMemoryStore } from '../../adapters/memory/index.ts';
import { serveVerifying } from '../support/verifyingServer.ts';
import { compilerVersion } from '../support/verification.ts';
import { LIBRARY, linkedInput, writeLinkedChain } from '../support/linkedChain.ts';
import type { LinkedPath } from '../support/linkedChain.ts';
import { request } from './helpers.ts';

const VERSION = compilerVersion();

const store = createMemoryStore();
const linked = await writeLinkedChain(store);
const url = await serveVerifying(t, { chainId: '1', chain: { store, contracts: createMemoryContractStore() } });

type Body = Record<string, unknown>;
const form = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

async function settle(guid: string): Promise<Body> {
  for (let i = 0; i < 600; i++) {
    const status = (await request(`${url}/api`, form({ module: 'contract', action: 'checkverifystatus', guid }))).json as Body;
    if (status['result'] !== 'Pending in queue') return status;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('still pending');
}

async function contractOnceVerified(address: string): Promise<Body> {
  for (let i = 0; i < 600; i++) {
    const c = (await request(`${url}/api/v2/smart-contracts/${address}`)).json as Body;
    if (c['is_verified'] === true) return c;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${address}: not verified`);
}

/** the user's address, verified by `path`: its `/smart-contracts/{h}` and getsourcecode */
async function readBack(t: Test, path: LinkedPath, name: string): Promise<void> {
  const { user, library } = linked[path];
  const contract = await contractOnceVerified(user);
  t.equal(contract['name'], 'UsesLib', 'verified');
  t.same(contract['external_libraries'], [{ name, address_hash: getAddress(library) }], 'external_libraries: the library linked, checksummed');
  const source = (await request(`${url}/api?module=contract&action=getsourcecode&address=${user}`)).json as { result: Body[] };
  t.same(source.result[0]?.['ExternalLibraries'], [{ name, address_hash: library }], 'getsourcecode: ExternalLibraries (the address as stored)');
}

t.test('Etherscan standard JSON with settings.libraries (forge --libraries)', async (t) => {
  const { user, library } = linked['standard-json'];
  const submitted = (await request(
    `${url}/api`,
    form({
      module: 'contract',
      action: 'verifysourcecode',
      contractaddress: getAddress(user),
      sourceCode: JSON.stringify(linkedInput(library)),
      codeformat: 'solidity-standard-json-input',
      contractname: 'src/MathLib.sol:UsesLib',
      compilerversion: VERSION,
    }),
  )).json as Body;
  t.match(await settle(submitted['result'] as string), { result: 'Pass - Verified' });
  await readBack(t, 'standard-json', 'src/MathLib.sol:MathLib');
});

t.test('Etherscan single file with libraryname1/libraryaddress1', async (t) => {
  const { user, library } = linked['single-file'];
  const submitted = (await request(
    `${url}/api`,
    form({
      module: 'contract',
      action: 'verifysourcecode',
      contractaddress: getAddress(user),
      sourceCode: LIBRARY,
      codeformat: 'solidity-single-file',
      contractname: 'UsesLib',
      compilerversion: VERSION,
      optimizationUsed: '1',
      runs: '200',
      evmversion: 'cancun',
      libraryname1: 'MathLib',
      libraryaddress1: getAddress(library),
    }),
  )).json as Body;
  t.match(await settle(submitted['result'] as string), { result: 'Pass - Verified' });
  await readBack(t, 'single-file', 'UsesLib.sol:MathLib');
});

t.test('API v2 flattened code with its libraries object', async (t) => {
  const { user, library } = linked['flattened-code'];
  const body = JSON.stringify({
    compiler_version: VERSION,
    source_code: LIBRARY,
    contract_name: 'UsesLib',
    is_optimization_enabled: true,
    optimization_runs: 200,
    evm_version: 'cancun',
    libraries: { MathLib: getAddress(library) },
  });
  const started = await request(`${url}/api/v2/smart-contracts/${user}/verification/via/flattened-code`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  t.equal(started.status, 200, 'started');
  await readBack(t, 'flattened-code', 'UsesLib.sol:MathLib');
});

t.test('API v2 standard input with settings.libraries', async (t) => {
  const { user, library } = linked['standard-input'];
  const body = new FormData();
  body.append('compiler_version', VERSION);
  body.append('contract_name', 'src/MathLib.sol:UsesLib');
  body.append('files[0]', new Blob([JSON.stringify(linkedInput(library))], { type: 'application/json' }), 'input.json');
  const started = await request(`${url}/api/v2/smart-contracts/${user}/verification/via/standard-input`, { method: 'POST', body });
  t.equal(started.status, 200, 'started');
  await readBack(t, 'standard-input', 'src/MathLib.sol:MathLib');
});
