/**
 * Verification over HTTP, through the Koa server as clients send it: forge's urlencoded
 * `verifysourcecode` (both spellings of the constructor arguments, an API key the server does
 * not know: ignored on the per-instance form, as Blockscout) and its `checkverifystatus` POST
 * form polled to `Pass - Verified`; a multipart `verifysourcecode`; API v2's
 * `verification/via/standard-input` with a JSON file part (as Blockscout's frontend uploads
 * it), read back from `/smart-contracts/{h}`; bodies over 20 MB (413, both dialects) and junk
 * JSON (422).
 */
import { request as httpRequest } from 'node:http';
import t from 'tap';
import { getAddress } from 'viem';
import { createMemoryContractStore, createMemoryStore } from '../../adapters/memory/index.ts';
import { serveVerifying } from '../support/verifyingServer.ts';
import { request } from './helpers.ts';
import type { Reply } from './helpers.ts';
import { compilerVersion, COUNTER, COUNTER_ADDRESS, ODD_ADDRESS, TOKEN_ADDRESS, TOKEN_INPUT, tokenArgs, writeVerifiableChain } from '../support/verification.ts';

const MB20 = 20 * 1024 * 1024;
const VERSION = compilerVersion();

const store = createMemoryStore();
await writeVerifiableChain(store);
const url = await serveVerifying(t, {
  chainId: '1',
  chain: { store, contracts: createMemoryContractStore() },
  keys: [{ key: 'k-known', plan: { name: 'known', requestsPerSecond: 1000, credits: 1_000_000, creditPeriod: 'day' } }],
});

const form = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});
const json = (r: Reply): Record<string, unknown> => r.json as Record<string, unknown>;

t.test('forge: verifysourcecode and checkverifystatus as urlencoded POST forms', async (t) => {
  const args = tokenArgs().slice(2);
  const startedAt = Date.now();
  const submitted = await request(
    `${url}/api`,
    form({
      apikey: 'api_key',
      module: 'contract',
      action: 'verifysourcecode',
      contractaddress: getAddress(TOKEN_ADDRESS),
      sourceCode: TOKEN_INPUT,
      codeformat: 'solidity-standard-json-input',
      contractname: 'src/Token.sol:Token',
      compilerversion: VERSION,
      constructorArguements: args,
      constructorArguments: args,
    }),
  );
  t.equal(submitted.status, 200, 'an API key the server does not know: ignored on the per-instance form');
  t.equal(json(submitted)['status'], '1');
  const guid = json(submitted)['result'] as string;
  let status: Record<string, unknown> = {};
  for (let i = 0; i < 600; i++) {
    status = json(await request(`${url}/api`, form({ apikey: 'api_key', module: 'contract', action: 'checkverifystatus', guid })));
    if (status['result'] !== 'Pending in queue') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  t.same(status, { status: '1', message: 'OK', result: 'Pass - Verified' });
  t.comment(`submitted to Pass - Verified: ${Date.now() - startedAt} ms (a cold worker: solc-js loaded first)`);
  const abi = json(await request(`${url}/api?module=contract&action=getabi&address=${TOKEN_ADDRESS}`));
  t.equal(abi['status'], '1', 'getabi: verified');

  const multipart = new FormData();
  for (const [k, v] of Object.entries({ module: 'contract', action: 'verifysourcecode', contractaddress: ODD_ADDRESS, sourceCode: TOKEN_INPUT, codeformat: 'solidity-standard-json-input', contractname: 'src/Token.sol:Token', compilerversion: VERSION })) {
    multipart.append(k, v);
  }
  const viaMultipart = json(await request(`${url}/api`, { method: 'POST', body: multipart }));
  t.match(viaMultipart, { status: '1', result: /^[0-9a-f]{40}/ }, 'a multipart form: read as well');
  const unknownKeyV2 = await request(`${url}/api/v2/smart-contracts/verification/config?apikey=api_key`);
  t.equal(unknownKeyV2.status, 401, 'API v2 still refuses a key it does not know');
});

t.test('API v2: standard-input with a JSON file part', async (t) => {
  const input = JSON.stringify({ language: 'Solidity', sources: { 'Counter.sol': { content: COUNTER } }, settings: { optimizer: { enabled: true, runs: 200 } } });
  const body = new FormData();
  body.append('compiler_version', VERSION);
  body.append('contract_name', 'Counter');
  body.append('files[0]', new Blob([input], { type: 'application/json' }), 'input.json');
  const started = await request(`${url}/api/v2/smart-contracts/${COUNTER_ADDRESS}/verification/via/standard-input`, { method: 'POST', body });
  t.same([started.status, started.json], [200, { message: 'Smart-contract verification started' }]);
  let contract: Record<string, unknown> = {};
  for (let i = 0; i < 600 && contract['is_verified'] !== true; i++) {
    await new Promise((r) => setTimeout(r, 50));
    contract = json(await request(`${url}/api/v2/smart-contracts/${COUNTER_ADDRESS}`));
  }
  t.same([contract['is_verified'], contract['name'], contract['file_path']], [true, 'Counter', 'Counter.sol'], 'read back from the contract');
  t.same(contract['compiler_settings'], { optimizer: { enabled: true, runs: 200 } }, 'the settings as submitted');
});

/** A POST declaring `length` bytes, of which only a start is sent: the server answers from the declaration. */
function declared(path: string, contentType: string, length: number): Promise<{ readonly status: number; readonly json: unknown }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { method: 'POST', headers: { 'content-type': contentType, 'content-length': String(length) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown }));
      res.on('error', reject);
    });
    // the server closes the connection after its answer: the unsent rest fails, as it should
    req.on('error', () => {});
    req.write(contentType.includes('json') ? '{"compiler_version":"' : 'module=contract&action=verifysourcecode&sourceCode=');
  });
}

t.test('bodies over 20 MB and junk', async (t) => {
  const scan = await declared('/api', 'application/x-www-form-urlencoded', MB20 + 1);
  t.same(scan, { status: 413, json: { status: '0', message: `Request body too large: at most ${MB20} bytes`, result: `Request body too large: at most ${MB20} bytes` } }, '/api: 413 in the envelope');
  const multipart = await declared('/api', 'multipart/form-data; boundary=x', MB20 + 1);
  t.equal(multipart.status, 413, '/api, multipart: 413');
  const v2 = await declared(`/api/v2/smart-contracts/${ODD_ADDRESS}/verification/via/flattened-code`, 'application/json', MB20 + 1);
  t.same(v2, { status: 413, json: { message: `Request body too large: at most ${MB20} bytes` } }, 'API v2: 413');
  const within = await request(`${url}/api`, form({ module: 'contract', action: 'checkverifystatus', guid: 'nope', padding: 'x'.repeat(1024 * 1024) }));
  t.same(within.json, { status: '1', message: 'OK', result: 'Unknown UID' }, 'a 1 MB form is read (the old 64 KiB cap is gone)');
  const junk = await request(`${url}/api/v2/smart-contracts/${ODD_ADDRESS}/verification/via/flattened-code`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{junk' });
  t.equal(junk.status, 422, 'junk JSON: 422');
  const alive = await request(`${url}/api?module=contract&action=checkverifystatus&guid=nope`);
  t.same(alive.json, { status: '1', message: 'OK', result: 'Unknown UID' }, 'and the server serves on');
});

t.test('Vyper: no compiler here, a clear answer on every Vyper method', async (t) => {
  const reason = 'Vyper verification is not available: this server has no Vyper compiler (only Solidity is verified)';
  const body = JSON.stringify({ compiler_version: 'v0.3.10', source_code: '# @version 0.3.10\n@external\ndef f() -> uint256:\n    return 1\n' });
  for (const method of ['vyper-code', 'vyper-multi-part', 'vyper-standard-input']) {
    const r = await request(`${url}/api/v2/smart-contracts/${COUNTER_ADDRESS}/verification/via/${method}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    t.same({ status: r.status, json: r.json }, { status: 404, json: { message: reason } }, `via/${method}: 404 with the reason`);
  }
  const bad = await request(`${url}/api/v2/smart-contracts/0xnope/verification/via/vyper-code`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  t.equal(bad.status, 422, 'a bad address is still a 422');
  const action = await request(`${url}/api`, form({ module: 'contract', action: 'verify_vyper_contract', addressHash: COUNTER_ADDRESS, name: 'C', compilerVersion: 'v0.3.10', contractSourceCode: '# @version 0.3.10' }));
  t.same(action.json, { status: '0', message: reason, result: reason }, 'Etherscan verify_vyper_contract: refused with the reason');
  const vyperJson = await request(`${url}/api`, form({ module: 'contract', action: 'verifysourcecode', codeformat: 'vyper-json', contractaddress: COUNTER_ADDRESS, sourceCode: '{}', contractname: 'C', compilerversion: 'vyper:0.3.10' }));
  t.same(vyperJson.json, { status: '0', message: 'Missing codeformat field', result: 'Missing codeformat field' }, "verifysourcecode's vyper-json (forge's Vyper form): refused as Blockscout refuses it");
});
