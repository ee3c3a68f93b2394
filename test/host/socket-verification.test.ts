/**
 * API v2 verification's result on Blockscout's socket: the official `phoenix` client (over `ws`)
 * joins `addresses:{h}` (lowercase, as the frontend does), POSTs a flattened-code verification
 * (answered "started"), and receives `verification_result` — `{"status":"success"}` for the
 * Counter compiled by solc, `{"status":"error","errors":{"contract_source_code":[…]}}` for code no
 * source compiles to — as Blockscout reports it; the contract then reads verified from the API.
 * A standard-input failure names `files`. A subscriber of another address hears nothing.
 */
import { rm } from 'node:fs/promises';
import { Socket } from 'phoenix';
import type { Channel } from 'phoenix';
import t from 'tap';
import type { Test } from 'tap';
import WebSocket from 'ws';
import { createMemoryContractStore, createMemoryStore } from '../../adapters/memory/index.ts';
import { createSolcVerifier } from '../../adapters/solc/index.ts';
import { createServer } from '../../host/index.ts';
import type { JsonObject } from '../../lib/index.ts';
import { compilerVersion, COUNTER, COUNTER_ADDRESS, emptyCompilerDir, ODD_ADDRESS, offlineCompilers, TOKEN_ADDRESS, writeVerifiableChain } from '../support/verification.ts';

// no network: an empty compiler directory, downloads refused (npm's solc serves its version)
const dir = await emptyCompilerDir();
const verifier = createSolcVerifier({ compilers: offlineCompilers(dir), size: 1 });
const store = createMemoryStore();
await writeVerifiableChain(store);
const PLAN = { name: 'local', requestsPerSecond: 1000, credits: 1_000_000, creditPeriod: 'day' } as const;
const server = createServer({
  chains: { '1': { store, feed: store.feed, contracts: createMemoryContractStore(), verifier } },
  anonymousPlan: PLAN,
  log: false,
  docs: false,
  metrics: false,
});
const { port } = await server.listen(0);
const http = `http://127.0.0.1:${port}`;
const socket = new Socket(`ws://127.0.0.1:${port}/socket/v2`, { transport: WebSocket, params: {} });
socket.connect();
t.teardown(async () => {
  socket.disconnect();
  await server.close();
  await verifier.close();
  await rm(dir, { recursive: true, force: true });
});

const join = (channel: Channel): Promise<{ status: string; response: unknown }> =>
  new Promise((resolve) => {
    channel
      .join()
      .receive('ok', (response: unknown) => resolve({ status: 'ok', response }))
      .receive('error', (response: unknown) => resolve({ status: 'error', response }));
  });

/** the address's channel, joined, and the verification_result payloads it receives */
async function follow(t: Test, address: string): Promise<JsonObject[]> {
  const results: JsonObject[] = [];
  const channel = socket.channel(`addresses:${address.toLowerCase()}`, {});
  channel.on('verification_result', (p: JsonObject) => void results.push(p));
  t.same(await join(channel), { status: 'ok', response: {} }, `addresses:${address.slice(0, 8)}… joined`);
  return results;
}

const flattened = async (address: string, source: string): Promise<{ status: number; json: unknown }> => {
  const res = await fetch(`${http}/api/v2/smart-contracts/${address}/verification/via/flattened-code`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ compiler_version: compilerVersion(), source_code: source, is_optimization_enabled: true, optimization_runs: 200, contract_name: 'Counter', license_type: 'mit' }),
  });
  return { status: res.status, json: await res.json() };
};

const arrived = async (results: readonly unknown[], ms = 45_000): Promise<void> => {
  const end = Date.now() + ms;
  while (results.length === 0) {
    if (Date.now() > end) throw new Error('no verification_result');
    await new Promise((r) => setTimeout(r, 20));
  }
};

t.test('a flattened-code verification: started, then verification_result on addresses:{h}', async (t) => {
  const results = await follow(t, COUNTER_ADDRESS);
  const bystander = await follow(t, TOKEN_ADDRESS);
  const startedAt = Date.now();
  t.same(await flattened(COUNTER_ADDRESS, COUNTER), { status: 200, json: { message: 'Smart-contract verification started' } }, 'the POST answers started');
  await arrived(results);
  t.comment(`POST to verification_result: ${Date.now() - startedAt} ms (solc-js loaded first)`);
  await new Promise((r) => setTimeout(r, 200));
  t.same(results, [{ status: 'success' }], 'verification_result: success, once');
  t.same(bystander, [], 'another address hears nothing');
  const contract = (await (await fetch(`${http}/api/v2/smart-contracts/${COUNTER_ADDRESS}`)).json()) as JsonObject;
  t.equal(contract['is_verified'], true, 'the API reads it verified once the socket said so');
});

t.test('a failed verification: verification_result with Blockscout\'s error shape', async (t) => {
  const results = await follow(t, ODD_ADDRESS);
  t.same(await flattened(ODD_ADDRESS, COUNTER), { status: 200, json: { message: 'Smart-contract verification started' } }, 'the POST answers started');
  await arrived(results);
  await new Promise((r) => setTimeout(r, 200));
  t.equal(results.length, 1, 'once');
  const [result] = results as [{ status: string; errors: Record<string, string[]> }];
  t.equal(result.status, 'error');
  t.same(Object.keys(result.errors), ['contract_source_code'], 'the field Blockscout names for a flattened-code failure');
  t.match(result.errors['contract_source_code']?.[0], /^Unable to verify/, `the reason: ${result.errors['contract_source_code']?.[0]}`);
});

t.test('a failed standard-input verification: the error under files, as Blockscout names it for uploads', async (t) => {
  const results = await follow(t, TOKEN_ADDRESS);
  const input = JSON.stringify({ language: 'Solidity', sources: { 'Counter.sol': { content: COUNTER } }, settings: { optimizer: { enabled: true, runs: 200 } } });
  const body = new FormData();
  body.append('compiler_version', compilerVersion());
  body.append('contract_name', 'Counter');
  body.append('files[0]', new Blob([input], { type: 'application/json' }), 'input.json');
  const res = await fetch(`${http}/api/v2/smart-contracts/${TOKEN_ADDRESS}/verification/via/standard-input`, { method: 'POST', body });
  t.same([res.status, await res.json()], [200, { message: 'Smart-contract verification started' }], 'the POST answers started');
  await arrived(results);
  await new Promise((r) => setTimeout(r, 200));
  t.equal(results.length, 1, 'once');
  const [result] = results as [{ status: string; errors: Record<string, string[]> }];
  t.equal(result.status, 'error');
  t.same(Object.keys(result.errors), ['files'], 'the field Blockscout names for a failure of a method that uploads files');
});
