/**
 * The contract store's reads on a read replica (`--read-db`), on a real Postgres streaming standby
 * (test/support/postgres.ts: a primary of the test's own and a hot standby by pg_basebackup -R).
 * Statements are counted by the knex instance that ran them: the primary's writer, the primary's
 * readers, the replica.
 *
 * - Caught up: 60 uncached requests that read verified contracts (contract pages, addresses,
 *   transactions, lists): no contract statement on the primary; every one on the replica.
 * - The standby's replay paused, host A verifies a contract (standard JSON, npm's solc, no
 *   network): right after the job passes, A reads it verified (read-your-writes: its own contract
 *   version is above what the replica was probed holding, so it reads the primary) while the
 *   standby still has no row; host B, which wrote nothing, reads it verified too once its contract
 *   feed (NOTIFY, on the primary) tells it the new version.
 * - Replay resumed: once a probe sees the replica hold that version, the contract reads go back
 *   to it (60 more uncached requests, no contract statement on the primary).
 *
 * Figures (statements by role) are printed.
 */
import t from 'tap';
import pg from 'pg';
import type { Knex } from 'knex';
import { rm } from 'node:fs/promises';
import { createSolcVerifier } from '../../../adapters/solc/index.ts';
import { openSqlStore } from '../../../adapters/sql/index.ts';
import type { SqlStore } from '../../../adapters/sql/index.ts';
import { openStore } from '../../../host/stores.ts';
import { createServer } from '../../../host/server.ts';
import { LOCAL_PLAN } from '../../../host/plans.ts';
import { hex } from '../../../lib/index.ts';
import type { ContractVerifier, JsonObject } from '../../../lib/index.ts';
import { block, bundle, tx } from '../../ports/records.ts';
import { startPostgres } from '../../support/postgres.ts';
import { ACCOUNT, compilerVersion, COUNTER, COUNTER_ADDRESS, emptyCompilerDir, ODD_ADDRESS, offlineCompilers, TOKEN_ADDRESS, TOKEN_TWIN, writeVerifiableChain } from '../../support/verification.ts';

/** one value of one row, on a connection of its own (not counted) */
async function one(url: string, sql: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<Record<string, unknown>>(sql);
    const value = rows[0] === undefined ? undefined : Object.values(rows[0])[0];
    return value === undefined || value === null ? null : String(value);
  } finally {
    await client.end().catch(() => {});
  }
}

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`waited in vain for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

type Role = 'primary writer' | 'primary readers' | 'replica';
/** the contract store's reads: its contracts and its version (the feed's own bookkeeping, contract_changes, apart) */
const CONTRACT_READS = /verified_contracts|contract_version/;
const VERIFIED = /verified_contracts/;

interface Counts {
  all: Record<Role, number>;
  contracts: Record<Role, number>;
  /** statements on verified_contracts */
  verified: Record<Role, number>;
}
const zero = (): Record<Role, number> => ({ 'primary writer': 0, 'primary readers': 0, replica: 0 });

interface Host {
  readonly url: string;
  readonly store: SqlStore;
  readonly counts: Counts;
  reset(): void;
  close(): Promise<void>;
}

const server = await startPostgres();
if (server === null) {
  t.pass('skipped: no Postgres binaries (said above)');
} else {
  const cleanups: (() => Promise<unknown>)[] = [];
  t.teardown(async () => {
    for (const undo of cleanups.reverse()) await undo().catch((e: unknown) => t.comment(`cleanup: ${String(e)}`));
  });
  cleanups.push(() => server.close());
  const primaryUrl = server.url();
  // the schema and the chain first, then the standby's copy of them
  const seed = await openSqlStore(primaryUrl);
  await writeVerifiableChain(seed);
  const b2 = block(2);
  const call = tx(b2, 0, { from: ACCOUNT, to: COUNTER_ADDRESS, input: hex('0xd09de08a') });
  await seed.writeBlocks([bundle(b2, { transactions: [call] })]);
  await seed.close();
  const standby = await server.standby();
  cleanups.push(() => standby.close());
  const standbyUrl = standby.url();
  const dir = await emptyCompilerDir();
  const verifier = createSolcVerifier({ compilers: offlineCompilers(dir), size: 1 });
  cleanups.push(async () => {
    await verifier.close();
    await rm(dir, { recursive: true, force: true });
  });

  const startHost = async (withVerifier?: ContractVerifier): Promise<Host> => {
    const opened = await openStore(primaryUrl, { readUrls: [standbyUrl], replicaProbeMs: 100, maxReplicaLagSeconds: 60 });
    const store = opened.source as SqlStore;
    const counts: Counts = { all: zero(), contracts: zero(), verified: zero() };
    const count = (role: Role) => (q: { sql?: string }) => {
      counts.all[role]++;
      if (CONTRACT_READS.test(q.sql ?? '')) counts.contracts[role]++;
      if (VERIFIED.test(q.sql ?? '')) counts.verified[role]++;
    };
    await until('the replica in use', () => store.replicas?.pickForContracts(0) != null);
    const replica = store.replicas?.pickForContracts(0) as Knex;
    store.knex.on('query', count('primary writer'));
    if (store.reader !== store.knex) store.reader.on('query', count('primary readers'));
    replica.on('query', count('replica'));
    const app = createServer({
      chains: { '1': { store, contracts: opened.contracts, ...(opened.feed === undefined ? {} : { feed: opened.feed }), ...(withVerifier === undefined ? {} : { verifier: withVerifier }) } },
      log: false,
      docs: false,
      metrics: false,
      anonymousPlan: LOCAL_PLAN,
      onClose: () => opened.close(),
    });
    const { url } = await app.listen(0);
    return {
      url,
      store,
      counts,
      reset() {
        counts.all = zero();
        counts.contracts = zero();
        counts.verified = zero();
      },
      close: () => app.close(),
    };
  };

  const contractVersion = (url: string): Promise<string | null> => one(url, 'select version from contract_version where id = 1');
  await until('the standby caught up', async () => (await one(standbyUrl, 'select count(*) from blocks')) === '3');
  const hostA = await startHost(verifier);
  const hostB = await startHost();
  cleanups.push(() => Promise.all([hostA.close(), hostB.close()]));

  const get = async (host: Host, path: string): Promise<JsonObject> => {
    const res = await fetch(`${host.url}/api/v2${path}`);
    if (res.status >= 500) throw new Error(`${path}: ${res.status}`);
    return (await res.json()) as JsonObject;
  };
  const addresses = [COUNTER_ADDRESS, TOKEN_ADDRESS, TOKEN_TWIN, ODD_ADDRESS, ACCOUNT];
  const txs = [call.hash, ...[0, 1, 2, 3].map((i) => tx(block(1), i).hash)];
  /** 60 distinct requests that read verified contracts (uncached on a host that has not answered them, or after a verification) */
  const requests = (): string[] =>
    [
      ...addresses.flatMap((a) => [`/smart-contracts/${a}`, `/addresses/${a}`, `/addresses/${a}/transactions`, `/addresses/${a}/counters`]),
      ...txs.flatMap((h) => [`/transactions/${h}`, `/transactions/${h}/logs`, `/transactions/${h}/token-transfers`, `/transactions/${h}/internal-transactions`]),
      ...[0, 1, 2].flatMap((n) => [`/blocks/${n}`, `/blocks/${n}/transactions`]),
      '/smart-contracts',
      '/smart-contracts/counters',
      '/smart-contracts?q=Counter',
      '/smart-contracts?filter=solidity',
      '/transactions',
      '/main-page/transactions',
      '/blocks',
      '/search?q=Counter',
      '/search/quick?q=Counter',
      '/addresses',
      '/stats',
      '/main-page/blocks',
      '/tokens',
      '/smart-contracts?q=Token',
    ]
      .slice(0, 60);
  const figures = (what: string, host: Host): void => {
    const { all, contracts, verified } = host.counts;
    const by = (r: Record<Role, number>): string => `primary writer ${r['primary writer']}, primary readers ${r['primary readers']}, replica ${r.replica}`;
    t.comment(`${what}: all statements: ${by(all)}; the contract store's reads (verified_contracts, contract_version): ${by(contracts)}; on verified_contracts: ${by(verified)}`);
  };
  /** the contract reads on the primary: its readers' (all of them before), and verified_contracts on the writer */
  const onPrimary = (host: Host): number => host.counts.contracts['primary readers'] + host.counts.verified['primary writer'];

  t.test('caught up: the contract reads of 60 uncached requests go to the replica', async (t) => {
    hostB.reset();
    const paths = requests();
    t.equal(new Set(paths).size, 60, '60 distinct requests');
    for (const p of paths) await get(hostB, p);
    figures('60 uncached requests, caught up', hostB);
    t.equal(onPrimary(hostB), 0, 'no contract read on the primary (its writer only runs the feed: its start and catch-ups)');
    t.ok(hostB.counts.contracts.replica > 0, `${hostB.counts.contracts.replica} on the replica`);
  });

  t.test('replay paused: the verifying host reads its verification at once; the other host once its feed says so', async (t) => {
    t.equal((await get(hostB, `/smart-contracts/${COUNTER_ADDRESS}`))['is_verified'], false, 'B: not verified yet');
    await one(standbyUrl, 'select pg_wal_replay_pause()');
    const input = JSON.stringify({ language: 'Solidity', sources: { 'Counter.sol': { content: COUNTER } }, settings: { optimizer: { enabled: true, runs: 200 } } });
    const body = new FormData();
    body.append('compiler_version', compilerVersion());
    body.append('contract_name', 'Counter');
    body.append('files[0]', new Blob([input], { type: 'application/json' }), 'input.json');
    const res = await fetch(`${hostA.url}/api/v2/smart-contracts/${COUNTER_ADDRESS}/verification/via/standard-input`, { method: 'POST', body });
    t.equal(res.status, 200, 'A: verification started');
    await until('the job passed', async () => (await one(primaryUrl, 'select state from verification_jobs')) === 'pass');
    hostA.reset();
    const contract = await get(hostA, `/smart-contracts/${COUNTER_ADDRESS}`);
    t.equal(contract['is_verified'], true, 'A reads it verified right after its job passed');
    t.equal(await one(standbyUrl, 'select count(*) from verified_contracts'), '0', 'while the paused standby has no verified contract');
    t.ok(hostA.counts.verified['primary readers'] > 0 && hostA.counts.verified.replica === 0, `A read it on the primary (${hostA.counts.verified['primary readers']} statements on verified_contracts), none on the replica`);
    figures('A, the read right after verifying', hostA);
    await until('B reads it verified (its feed raised its contract version)', async () => (await get(hostB, `/smart-contracts/${COUNTER_ADDRESS}`))['is_verified'] === true);
    t.pass('B reads it verified while the standby is still paused');
    const decoded = await get(hostB, `/transactions/${call.hash}`);
    t.equal((decoded['decoded_input'] as JsonObject | null)?.['method_call'], 'increment()', 'and decodes the call to it');
  });

  t.test('replay resumed: once probed holding the version, the replica takes the contract reads back', async (t) => {
    await one(standbyUrl, 'select pg_wal_replay_resume()');
    const version = Number(await contractVersion(primaryUrl));
    await until('the standby replayed the verification', async () => Number(await contractVersion(standbyUrl)) >= version);
    await until('A probed the replica holding it', () => hostA.store.replicas?.pickForContracts(version) != null);
    hostA.reset();
    for (const p of requests()) await get(hostA, p);
    figures('60 uncached requests on the verifying host, caught up again', hostA);
    t.equal(onPrimary(hostA), 0, 'no contract read on the primary');
    t.equal((await get(hostA, `/smart-contracts/${COUNTER_ADDRESS}`))['is_verified'], true, 'still verified, from the replica');
  });
}
