/**
 * What the real-client verification tests (forge, hardhat-verify 2 and 3) share: the chain their
 * project deployed to anvil indexed into a SQLite file by `scoutkit index`, then served by
 * `createServer` with a SQL contract store and a solc-js verifier (compilers from npm's solc);
 * everything closed at the test's end.
 */
import { rm } from 'node:fs/promises';
import type { Test } from 'tap';
import { createSqlContractStore, openSqlStore } from '../../adapters/sql/index.ts';
import { createSolcVerifier } from '../../adapters/solc/index.ts';
import { runIndexCommand } from '../../host/commands/index.ts';
import { createServer } from '../../host/index.ts';
import { compilerDir } from '../adapters/solc/fixture.ts';

export interface VerifyingServerOptions {
  /** the node the project deployed to */
  readonly rpc: string;
  /** `sqlite:<file>` */
  readonly db: string;
  readonly chainId: number;
  /** compile workers (default 1) */
  readonly workers?: number;
}

/** Index `rpc` into `db`, serve it with a verifier; the server's URL. */
export async function indexAndServe(t: Test, o: VerifyingServerOptions): Promise<string> {
  const quiet = { stdout: { write: () => {}, isTTY: false }, stderr: { write: () => {} } };
  if ((await runIndexCommand(['--rpc', o.rpc, '--db', o.db], quiet)) !== 0) throw new Error('scoutkit index failed');
  const dir = await compilerDir(['solc']);
  const verifier = createSolcVerifier({ compilers: { dir, download: false }, size: o.workers ?? 1 });
  const store = await openSqlStore(o.db);
  const server = createServer({
    chains: { [String(o.chainId)]: { store, contracts: createSqlContractStore(store), verifier } },
    anonymousPlan: { name: 'local', requestsPerSecond: 1000, credits: 1_000_000, creditPeriod: 'day' },
    log: false,
    docs: false,
    metrics: false,
  });
  const { url } = await server.listen(0);
  t.teardown(async () => {
    await server.close();
    await verifier.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });
  return url;
}
