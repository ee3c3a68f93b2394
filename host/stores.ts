/**
 * Store URLs → DataSources, for the CLI and servers:
 *   memory:            an empty in-memory store
 *   memory:fixture     the test fixture chain in memory (a development aid)
 *   sqlite:<path>      SQLite file, through adapters/sql
 *   postgres://...     Postgres (also postgresql://), through adapters/sql
 * Adapters load on demand, so a memory server never loads knex.
 *
 * A Postgres store may be read from streaming replicas (`readUrls`, `serve --read-db`): the
 * source's `replicas` picks a copy per request; writes, the lease and the change feed stay on
 * the primary.
 */
import type { ChangeFeed, ContractStore, DataSink, DataSource } from '../lib/index.ts';
import type { StoreLease } from '../lib/indexer/lease.ts';

export interface OpenedStore {
  readonly source: DataSource;
  /** the same store's write side (every store URL opens a writable store) */
  readonly sink: DataSink;
  /** verified contracts and verification jobs, in the same store (the same database for SQL) */
  readonly contracts: ContractStore;
  /** what each write changed (this process's and, for SQL, other processes') */
  readonly feed?: ChangeFeed;
  /** what was opened, without credentials (for logs) */
  readonly description: string;
  /** the store's writer lease (one indexer writes; lib/indexer/lease.ts) */
  readonly lease: StoreLease;
  close(): Promise<void>;
}

export class StoreUrlError extends Error {
  override readonly name = 'StoreUrlError';
}

export interface OpenStoreOptions {
  /** read replicas of a Postgres store (`postgres://…`, streaming standbys of `url`) */
  readonly readUrls?: readonly string[];
  /** a replica missing a write for longer than this is left out until it catches up (default 10 s) */
  readonly maxReplicaLagSeconds?: number;
  /** how often the replicas are probed, ms (default 1000) */
  readonly replicaProbeMs?: number;
}

export async function openStore(url: string, options: OpenStoreOptions = {}): Promise<OpenedStore> {
  const readUrls = options.readUrls ?? [];
  if (readUrls.length > 0 && !/^postgres(ql)?:\/\//.test(url)) {
    throw new StoreUrlError(`read replicas need a Postgres store (postgres://...), not "${redact(url)}"`);
  }
  if (url === 'memory:' || url === 'memory') {
    const { createMemoryContractStore, createMemoryLease, createMemoryStore } = await import('../adapters/memory/index.ts');
    const store = createMemoryStore();
    return { source: store, sink: store, feed: store.feed, contracts: createMemoryContractStore(), description: 'memory', lease: createMemoryLease(store), close: async () => {} };
  }
  if (url === 'memory:fixture') {
    const { createMemoryContractStore, createMemoryLease, createMemoryStore } = await import('../adapters/memory/index.ts');
    // a development aid: the fixture chain (scoutkit/fixture) the tests use
    const { loadFixtureChain } = await import('../fixture/index.ts');
    const store = createMemoryStore();
    await loadFixtureChain(store);
    return { source: store, sink: store, feed: store.feed, contracts: createMemoryContractStore(), description: 'memory (fixture chain)', lease: createMemoryLease(store), close: async () => {} };
  }
  if (/^sqlite:/.test(url) || /^postgres(ql)?:\/\//.test(url)) return openSql(url, options);
  throw new StoreUrlError(
    `unsupported store URL "${redact(url)}": use memory:, memory:fixture, sqlite:<path> or postgres://...`,
  );
}

/** The URL without a password, for messages and logs. */
export function redact(url: string): string {
  return url.replace(/^([a-z]+:\/\/[^:/@]*):[^@/]*@/i, '$1:***@');
}

async function openSql(url: string, options: OpenStoreOptions): Promise<OpenedStore> {
  const { createSqlContractStore, createSqlLease, openSqlStore } = await import('../adapters/sql/index.ts');
  const readReplicas = options.readUrls ?? [];
  const replicaOptions = {
    ...(options.maxReplicaLagSeconds === undefined ? {} : { maxLagSeconds: options.maxReplicaLagSeconds }),
    ...(options.replicaProbeMs === undefined ? {} : { probeMs: options.replicaProbeMs }),
  };
  const store = await openSqlStore(url, readReplicas.length === 0 ? {} : { readReplicas, replicaOptions });
  const description = readReplicas.length === 0 ? redact(url) : `${redact(url)} (reads from ${readReplicas.map(redact).join(', ')})`;
  return { source: store, sink: store, feed: store.feed, contracts: createSqlContractStore(store), description, lease: createSqlLease(url), close: () => store.close() };
}
