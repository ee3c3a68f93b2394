/**
 * A server with a solc-js verifier (no network: an empty compiler directory, a download base that
 * refuses, npm's solc serving its own version) over a chain's store and contract
 * store, closed at the test's end — what the verification tests over HTTP share; and for the
 * real-client ones (forge, hardhat-verify 2 and 3), the chain their project deployed to anvil
 * indexed into a SQLite file by `scoutkit index`, then served so.
 */
import { rm } from 'node:fs/promises';
import type { Test } from 'tap';
import { createSqlContractStore, openSqlStore } from '../../adapters/sql/index.ts';
import { createSolcVerifier } from '../../adapters/solc/index.ts';
import { runIndexCommand } from '../../host/commands/index.ts';
import { createServer } from '../../host/index.ts';
import type { ServerOptions } from '../../host/index.ts';
import type { ChainConfig } from '../../lib/index.ts';
import { emptyCompilerDir, offlineCompilers } from './verification.ts';

export interface VerifyingServerOptions {
  /** the node the project deployed to */
  readonly rpc: string;
  /** `sqlite:<file>` */
  readonly db: string;
  readonly chainId: number;
  /** compile workers (default 1) */
  readonly workers?: number;
}

const LOCAL_PLAN = { name: 'local', requestsPerSecond: 1000, credits: 1_000_000, creditPeriod: 'day' } as const;

/** Serve one chain with a verifier (`workers` compile workers, default 1); the server's URL. */
export async function serveVerifying(
  t: Test,
  o: { readonly chainId: string; readonly chain: Omit<ChainConfig, 'verifier'>; readonly workers?: number; readonly keys?: ServerOptions['keys'] },
): Promise<string> {
  const dir = await emptyCompilerDir();
  const verifier = createSolcVerifier({ compilers: offlineCompilers(dir), size: o.workers ?? 1 });
  const server = createServer({
    chains: { [o.chainId]: { ...o.chain, verifier } },
    ...(o.keys === undefined ? {} : { keys: o.keys }),
    // room for the clients' polls (an unknown key is ignored on /api: they run anonymous)
    anonymousPlan: LOCAL_PLAN,
    log: false,
    docs: false,
    metrics: false,
  });
  const { url } = await server.listen(0);
  t.teardown(async () => {
    await server.close();
    await verifier.close();
    await rm(dir, { recursive: true, force: true });
  });
  return url;
}

/** Index `rpc` into `db`, serve it with a verifier; the server's URL. */
export async function indexAndServe(t: Test, o: VerifyingServerOptions): Promise<string> {
  const quiet = { stdout: { write: () => {}, isTTY: false }, stderr: { write: () => {} } };
  if ((await runIndexCommand(['--rpc', o.rpc, '--db', o.db], quiet)) !== 0) throw new Error('scoutkit index failed');
  const store = await openSqlStore(o.db);
  const url = await serveVerifying(t, { chainId: String(o.chainId), chain: { store, contracts: createSqlContractStore(store) }, ...(o.workers === undefined ? {} : { workers: o.workers }) });
  t.teardown(() => store.close()); // after the server's
  return url;
}
