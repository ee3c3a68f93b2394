/**
 * scoutkit's SQL store: one knex implementation of the DataSource and DataSink ports over
 * SQLite (a file, the embedded default) and Postgres.
 *
 *   const store = await openSqlStore('sqlite:./scoutkit.sqlite');   // or 'sqlite::memory:'
 *   const store = await openSqlStore('postgres://user@host:5432/db', { searchPath: 'chain1' });
 *
 * Migrations apply on open. `createSqlStore(knex)` wraps a knex instance you configured.
 */
import knexFactory from 'knex';
import type { Knex } from 'knex';
import type { Hash } from '../../lib/domain/records.ts';
import { signalWrites } from '../../lib/data-version.ts';
import type { ChainIdentity, DataSink, VersionedDataSource } from '../../lib/ports.ts';
import { dialectOf, dialectOfUrl, sqliteFile } from './dialect.ts';
import { MIGRATIONS, migratorConfig } from './migrations/index.ts';
import { migrateOnce } from './migrateOnce.ts';
import type { Migrator } from './migrateOnce.ts';
import { createSqlReader } from './read.ts';
import { asRows, num, str } from './rows.ts';
import { guardSink } from './unavailable.ts';
import { createSqlWriter } from './write.ts';
import type { ChangeFeed } from '../../lib/feed/change.ts';
import { createSqlFeed } from './feed.ts';
import type { SqlWriterMode } from './write.ts';
import { createReplicaSet, replicaName } from './replicas.ts';
import { contractVersionOf } from './contractFeed.ts';
import type { ReplicaOptions, ReplicaReader, ReplicaSet } from './replicas.ts';

/** the migrations, handed to migrateOnce (this opener is the one live importer of the list) */
const MIGRATOR: Migrator = { config: migratorConfig, names: MIGRATIONS.map((m) => m.name) };

/** thrown by writeBlocks / writePendingTransactions on a malformed input (nothing is written) */
export { InvalidWriteError } from '../../lib/sink/validate.ts';
/** thrown by the DataSink methods when the database cannot be reached now (ask again later) */
export { StoreUnavailableError } from '../../lib/sink/unavailable.ts';
export { isStoreUnreachable } from './unavailable.ts';

export type SqlStore = VersionedDataSource &
  DataSink & {
    /** the knex instance of writes and migrations (for tools and tests) */
    readonly knex: Knex;
    /** the knex instance reads go through (the same one except for a SQLite file's reader pool) */
    readonly reader: Knex;
    readonly dialect: 'sqlite' | 'postgres';
    /** after a bulk load: rebuild the indexes beginBulk deferred, then SQLite ANALYZE; Postgres VACUUM (ANALYZE) of the store's tables (DataSink.settle) */
    settle(): Promise<void>;
    /**
     * before a bulk load: drop the secondary indexes only reads use (their definitions saved
     * in the store), until settle() rebuilds them (DataSink.beginBulk; adapters/sql/bulk.ts)
     */
    beginBulk(): Promise<void>;
    /** whether beginBulk deferred indexes that no settle() has rebuilt yet */
    inBulk(): Promise<boolean>;
    /**
     * what each write changed: this object's writes synchronously after their commit, other
     * processes' through the change log (woken by Postgres NOTIFY, or SQLite's version poll)
     */
    readonly feed: ChangeFeed;
    /**
     * the read replicas, when opened with some (`readReplicas`): each request of an explorer
     * reads one copy, a replica in use or the primary (adapters/sql/replicas.ts)
     */
    readonly replicas?: ReplicaSet;
    /** apply pending migrations (done on open) */
    migrate(): Promise<void>;
    /** run `fn` when the store closes, before its connections do (a contract store's feed: ./contractStore.ts) */
    onClose(fn: () => Promise<void>): void;
    close(): Promise<void>;
  };

export interface SqlStoreOptions {
  /** Postgres: the schema to use (created when missing); default the server's search_path */
  readonly searchPath?: string;
  /** Postgres: most pooled connections (default 10) of each pool: the reads' (statements named) and the writes' */
  readonly poolSize?: number;
  /** apply migrations on open (default true) */
  readonly migrate?: boolean;
  /**
   * SQLite file: connections for reads beside the one writer connection (default 4; WAL lets
   * them read while a write is in progress). 0 = read on the writer connection.
   * `sqlite::memory:` always uses one connection.
   */
  readonly sqliteReaders?: number;
  /**
   * tests: recompute current values from history on every write (never take the append-only
   * path), to hold both paths against each other
   */
  readonly recomputeCurrent?: boolean;
  /**
   * Postgres: read replicas (streaming standbys of this database, `postgres://…`) the API's
   * reads are spread across; writes, migrations, the lease and the change feed stay on the
   * primary. Each gets a reads' pool of `poolSize`.
   */
  readonly readReplicas?: readonly string[];
  /** how far behind a replica may fall, and how often it is probed (adapters/sql/replicas.ts) */
  readonly replicaOptions?: ReplicaOptions;
}

/** the store opened with read replicas on a database that has none (SQLite), or a replica URL that is not Postgres */
export class ReplicaUrlError extends Error {
  override readonly name = 'ReplicaUrlError';
}

export { UnsupportedDatabaseUrl } from './dialect.ts';

/** knex settings for a database URL (`readers`: a pool of that size for the reads only — see ConnectOptions). */
export function knexConfig(url: string, options: SqlStoreOptions = {}, readers = 0): Knex.Config {
  return dialectOfUrl(url).knexConfig(url, { ...options, readers });
}

/** Read replicas for createSqlStore: their knex instances (each a standby of the primary) and how they are judged. */
export interface SqlReplicas {
  readonly replicas: readonly { readonly name: string; readonly knex: Knex }[];
  readonly options?: ReplicaOptions;
}

/**
 * The store over a knex instance you configured (migrations are not applied here). `reader`,
 * when given, serves the DataSource reads (e.g. a pool of read connections to a SQLite file).
 * `replicas`: read replicas an explorer spreads its reads across (`store.replicas`); they are
 * closed with the store.
 */
export function createSqlStore(knex: Knex, reader: Knex = knex, writerMode: SqlWriterMode = {}, replicas?: SqlReplicas): SqlStore {
  const d = dialectOf(knex);
  const sqlReader = createSqlReader(reader, d);
  const { localFeed, ...writer } = createSqlWriter(knex, d, writerMode);
  const feed = createSqlFeed(knex, d, sqlReader, localFeed);
  const readers: ReplicaReader[] = (replicas?.replicas ?? []).map((r) => ({
    name: r.name,
    knex: r.knex,
    source: createSqlReader(r.knex, d),
    contractVersion: () => contractVersionOf(r.knex),
  }));
  // the primary as the replicas' judge and fallback: the store itself (its own writes seen at once)
  let self: SqlStore | null = null;
  const closers: (() => Promise<void>)[] = [];
  const set = readers.length === 0 ? undefined : createReplicaSet(() => self ?? sqlReader, readers, replicas?.options);
  // an unreachable database (restarting, a dropped connection, SQLite busy) is thrown as StoreUnavailableError
  const store: SqlStore = guardSink({
    ...sqlReader,
    // this object's writes reach its readers at once; other processes' by polling getDataVersion
    ...signalWrites(writer, true),
    feed,
    knex,
    reader,
    dialect: d.name,
    async migrate() {
      await knex.migrate.latest(migratorConfig);
    },
    async getChainIdentity(): Promise<ChainIdentity | null> {
      const row = asRows(await knex('chain_identity').where('id', 1))[0];
      return row === undefined ? null : { chainId: num(row, 'chain_id'), genesisHash: str(row, 'genesis_hash') as Hash };
    },
    async setChainIdentity(identity: ChainIdentity): Promise<void> {
      await knex('chain_identity')
        .insert({ id: 1, chain_id: identity.chainId, genesis_hash: identity.genesisHash })
        .onConflict('id')
        .merge();
    },
    ...(set === undefined ? {} : { replicas: set }),
    onClose(fn) {
      closers.push(fn);
    },
    async close() {
      await Promise.allSettled(closers.map((fn) => fn()));
      await feed.close();
      await set?.close();
      if (reader !== knex) await reader.destroy();
      await knex.destroy();
    },
  });
  self = store;
  return store;
}

/** Open (and migrate) the store at `url`: `sqlite:<path>`, `sqlite::memory:` or `postgres://…`. */
export async function openSqlStore(url: string, options: SqlStoreOptions = {}): Promise<SqlStore> {
  const knex = knexFactory(knexConfig(url, options));
  const file = sqliteFile(url);
  // the reads' own pool: a SQLite file's read-only connections, or Postgres connections that name their statements
  const readers = file === ':memory:' ? 0 : file === null ? (options.poolSize ?? 10) : (options.sqliteReaders ?? 4);
  let reader: Knex | null = null;
  const replicaUrls = options.readReplicas ?? [];
  if (replicaUrls.length > 0 && file !== null) throw new ReplicaUrlError('read replicas need a Postgres store (postgres://…), not SQLite');
  for (const r of replicaUrls) if (!/^postgres(ql)?:\/\//.test(r)) throw new ReplicaUrlError(`a read replica is a Postgres URL (postgres://…), got "${replicaName(r)}"`);
  const replicaKnexes: Knex[] = [];
  try {
    const prepare = (): Promise<void> => dialectOf(knex).prepare(knex, options);
    // migrations once, openers waiting for one another (migrateOnce.ts)
    if (options.migrate !== false) await migrateOnce(knex, url, MIGRATOR, prepare);
    else await prepare();
    if (readers > 0) reader = knexFactory(knexConfig(url, options, readers));
    // each replica: a reads' pool (statements named), never migrated (it replays the primary's schema)
    for (const r of replicaUrls) replicaKnexes.push(knexFactory(knexConfig(r, options, options.poolSize ?? 10)));
    const replicas = replicaKnexes.map((k, i) => ({ name: replicaName(replicaUrls[i] as string), knex: k }));
    const store = createSqlStore(knex, reader ?? knex, { recomputeAlways: options.recomputeCurrent === true }, replicas.length === 0 ? undefined : { replicas, ...(options.replicaOptions === undefined ? {} : { options: options.replicaOptions }) });
    // the first states known before the first request (an unreachable replica waits for a later probe)
    await store.replicas?.probe();
    return store;
  } catch (err) {
    await Promise.allSettled(replicaKnexes.map((k) => k.destroy()));
    if (reader !== null) await reader.destroy();
    await knex.destroy();
    throw err;
  }
}

export interface MigrationReport {
  /** migrations this call applied, in order */
  readonly applied: readonly string[];
  /** every migration the store now has */
  readonly current: readonly string[];
}

/** Apply pending migrations to the store at `url` and report them (`scoutkit migrate`). */
export async function migrateSqlStore(url: string, options: Pick<SqlStoreOptions, 'searchPath'> = {}): Promise<MigrationReport> {
  const knex = knexFactory(knexConfig(url, options));
  try {
    const applied = await migrateOnce(knex, url, MIGRATOR, () => dialectOf(knex).prepare(knex, options));
    const [completed] = (await knex.migrate.list(migratorConfig)) as [{ name: string }[], unknown[]];
    return { applied, current: completed.map((m) => m.name) };
  } finally {
    await knex.destroy();
  }
}

export type { ReplicaOptions, ReplicaSet } from './replicas.ts';
export { createSqlContractStore } from './contractStore.ts';
export type { ContractReadCopies, SqlContractStore, SqlContractStoreOptions } from './contractStore.ts';
export { createSqlLease } from './lease.ts';
export type { SqlLeaseOptions } from './lease.ts';
