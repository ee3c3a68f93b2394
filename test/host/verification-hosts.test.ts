/**
 * A verification on one host reaches every host sharing the store: two servers, each with its
 * own store object over the same database (as two processes: nothing shared in memory), on
 * SQLite (the contract feed's poll) and on Postgres (LISTEN/NOTIFY; when reachable, or under
 * CI=true). Host A verifies (standard JSON through API v2, npm's solc, no network); host B, which
 * has no verifier, has a socket on `addresses:{h}`:
 *
 * - B's socket gets `verification_result` `{"status":"success"}`, once;
 * - at that moment B reads the contract verified and decodes a call to it that it answered
 *   undecoded before (its cached answers and its verified-ABI index follow the feed);
 * - the job row records its input kind (`standard-input`).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Socket } from 'phoenix';
import type { Channel } from 'phoenix';
import t from 'tap';
import type { Test } from 'tap';
import WebSocket from 'ws';
import { createSqlContractStore, openSqlStore } from '../../adapters/sql/index.ts';
import type { SqlStore } from '../../adapters/sql/index.ts';
import { createSolcVerifier } from '../../adapters/solc/index.ts';
import { createServer } from '../../host/index.ts';
import { hex } from '../../lib/index.ts';
import type { ContractVerifier, JsonObject } from '../../lib/index.ts';
import { block, bundle, tx } from '../ports/records.ts';
import { databaseUrl, postgresUnreachable, selectedStoreNames } from '../support/stores.ts';
import { ACCOUNT, compilerVersion, COUNTER, COUNTER_ADDRESS, emptyCompilerDir, offlineCompilers, writeVerifiableChain } from '../support/verification.ts';

const PLAN = { name: 'local', requestsPerSecond: 1000, credits: 1_000_000, creditPeriod: 'day' } as const;
const INCREMENT = hex('0xd09de08a');

const join_ = (channel: Channel): Promise<{ status: string; response: unknown }> =>
  new Promise((resolve) => {
    channel
      .join()
      .receive('ok', (response: unknown) => resolve({ status: 'ok', response }))
      .receive('error', (response: unknown) => resolve({ status: 'error', response }));
  });

async function until(what: string, ok: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`waited in vain for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** a host over its own store object; its URL */
async function host(t: Test, store: SqlStore, verifier?: ContractVerifier): Promise<string> {
  const contracts = createSqlContractStore(store, { pollMs: 20 });
  const server = createServer({
    chains: { '1': { store, feed: store.feed, contracts, ...(verifier === undefined ? {} : { verifier }) } },
    anonymousPlan: PLAN,
    log: false,
    docs: false,
    metrics: false,
  });
  const { port } = await server.listen(0);
  t.teardown(() => server.close());
  return `http://127.0.0.1:${port}`;
}

async function proof(t: Test, open: () => Promise<SqlStore>): Promise<void> {
  const a = await open();
  t.teardown(() => a.close());
  await writeVerifiableChain(a);
  const b2 = block(2);
  const call = tx(b2, 0, { from: ACCOUNT, to: COUNTER_ADDRESS, input: INCREMENT });
  await a.writeBlocks([bundle(b2, { transactions: [call] })]);
  const b = await open();
  t.teardown(() => b.close());

  const dir = await emptyCompilerDir();
  const verifier = createSolcVerifier({ compilers: offlineCompilers(dir), size: 1 });
  t.teardown(async () => {
    await verifier.close();
    await rm(dir, { recursive: true, force: true });
  });
  const hostA = await host(t, a, verifier);
  const hostB = await host(t, b);
  const get = async (base: string, path: string): Promise<JsonObject> => (await (await fetch(`${base}/api/v2${path}`)).json()) as JsonObject;

  const socket = new Socket(`${hostB.replace(/^http/, 'ws')}/socket/v2`, { transport: WebSocket, params: {} });
  socket.connect();
  t.teardown(() => socket.disconnect());
  const results: JsonObject[] = [];
  const channel = socket.channel(`addresses:${COUNTER_ADDRESS}`, {});
  channel.on('verification_result', (p: JsonObject) => void results.push(p));
  t.same(await join_(channel), { status: 'ok', response: {} }, 'B: addresses:{counter} joined');

  // B answers (and caches) the contract unverified and the call undecoded
  t.equal((await get(hostB, `/smart-contracts/${COUNTER_ADDRESS}`))['is_verified'], false, 'B: not verified yet');
  t.equal((await get(hostB, `/transactions/${call.hash}`))['decoded_input'], null, 'B: the call undecoded yet');

  const input = JSON.stringify({ language: 'Solidity', sources: { 'Counter.sol': { content: COUNTER } }, settings: { optimizer: { enabled: true, runs: 200 } } });
  const body = new FormData();
  body.append('compiler_version', compilerVersion());
  body.append('contract_name', 'Counter');
  body.append('files[0]', new Blob([input], { type: 'application/json' }), 'input.json');
  const res = await fetch(`${hostA}/api/v2/smart-contracts/${COUNTER_ADDRESS}/verification/via/standard-input`, { method: 'POST', body });
  t.same([res.status, await res.json()], [200, { message: 'Smart-contract verification started' }], 'A: the POST answers started');

  await until('verification_result on B', () => results.length > 0);
  // read at once, before anything else can happen
  const [contract, decoded] = await Promise.all([get(hostB, `/smart-contracts/${COUNTER_ADDRESS}`), get(hostB, `/transactions/${call.hash}`)]);
  t.same(results, [{ status: 'success' }], 'B: verification_result success (A ran the job)');
  t.equal(contract['is_verified'], true, 'B reads it verified when its socket says so');
  t.equal((decoded['decoded_input'] as JsonObject | null)?.['method_call'], 'increment()', 'B decodes the call at once');
  const kinds = (await a.knex('verification_jobs').select('input_kind')) as { input_kind: string | null }[];
  t.same(kinds.map((r) => r.input_kind), ['standard-input'], 'the job records its input kind');
  await new Promise((r) => setTimeout(r, 200));
  t.equal(results.length, 1, 'once');
}

const stores = selectedStoreNames();

if (stores.includes('sqlite')) {
  t.test('sqlite: two hosts on one file', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'scoutkit-hosts-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'chain.sqlite');
    await proof(t, () => openSqlStore(`sqlite:${file}`));
  });
}

if (stores.includes('postgres')) {
  t.test('postgres: two hosts on one schema', async (t) => {
    const why = await postgresUnreachable();
    if (why !== null) {
      if (process.env.CI === 'true') throw new Error(why);
      t.pass(`skipped: ${why}`);
      return;
    }
    const schema = `scoutkit_hosts_${process.pid}_${randomBytes(3).toString('hex')}`;
    t.teardown(async () => {
      const admin = await openSqlStore(databaseUrl(), { migrate: false, poolSize: 1 });
      await admin.knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]);
      await admin.close();
    });
    await proof(t, () => openSqlStore(databaseUrl(), { searchPath: schema, poolSize: 4 }));
  });
}
