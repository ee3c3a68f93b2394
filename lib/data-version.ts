/**
 * The data version a response cache keys its answers by, learned without a query per request.
 *
 * - Same process: a store's writes bump an in-process counter (DataVersionSignal) that readers
 *   read synchronously, so the very next request after a write sees it (`signalWrites`).
 * - Across processes: another process's writes are visible only in the database, so a reader
 *   also polls DataSource.getDataVersion — at most once per `pollMs` (default 100 ms), measured
 *   from the start of the poll, with concurrent requests sharing the one in flight. A foreign
 *   write can therefore go unseen for at most one interval (plus the poll's own duration).
 */
import type { ChangeFeed } from './feed/change.ts';
import type { BlockSink, DataSource, DataVersionSignal } from './ports.ts';

/** how often, at most, an explorer asks a shared store for its data version */
export const DEFAULT_VERSION_POLL_MS = 100;

type Writes = Pick<BlockSink, 'writeBlocks' | 'writePendingTransactions' | 'rollbackAbove' | 'dropPendingTransactions' | 'writeUserOperations'>;

/**
 * The sink with a DataVersionSignal bumped after every write settles (committed, or failed and
 * so changed nothing: one more cache miss is harmless). `shared`: whether other processes may
 * write the same data (a database) — see DataVersionSignal.
 */
export function signalWrites<S extends Writes>(sink: S, shared: boolean): S & { readonly dataVersionSignal: DataVersionSignal } {
  let writes = 0;
  const counted =
    <A extends readonly unknown[]>(write: (...args: A) => Promise<void>) =>
    async (...args: A): Promise<void> => {
      try {
        await write(...args);
      } finally {
        writes++;
      }
    };
  const drop = sink.dropPendingTransactions;
  const backfill = sink.writeUserOperations;
  return {
    ...sink,
    writeBlocks: counted(sink.writeBlocks),
    writePendingTransactions: counted(sink.writePendingTransactions),
    rollbackAbove: counted(sink.rollbackAbove),
    ...(drop !== undefined ? { dropPendingTransactions: counted(drop) } : {}),
    ...(backfill !== undefined
      ? {
          writeUserOperations: async (...args: Parameters<typeof backfill>): Promise<boolean> => {
            try {
              return await backfill.apply(sink, args);
            } finally {
              writes++;
            }
          },
        }
      : {}),
    dataVersionSignal: { shared, local: () => writes },
  };
}

export interface VersionReaderOptions {
  /** poll a shared store's getDataVersion at most this often (default 100 ms; 0: every request) */
  readonly pollMs?: number;
  /** the clock the interval is measured on, in ms (default performance.now) */
  readonly now?: () => number;
  /**
   * the store's change feed (a chain's ChangeFeed, a contract store's ContractFeed): a change it
   * announces (another process's write, by NOTIFY) makes the next request ask for the version at
   * once; the poll stays as the fallback
   */
  readonly feed?: Pick<ChangeFeed, 'subscribe'> | { subscribe(listener: () => void): () => void };
}

/**
 * The current data version of a source, synchronously when it is known; undefined when the
 * source cannot tell (no version, or the query failed): the answer is then not cached.
 */
export type ReadDataVersion = () => string | undefined | Promise<string | undefined>;

/** What a version reader reads: a source's version query and in-process signal (a DataSource, a ContractStore). */
export type Versioned = Pick<DataSource, 'getDataVersion' | 'dataVersionSignal'>;

/** Two sources' versions as one (`a/b`): undefined when either cannot tell. */
export function combineVersions(a: ReadDataVersion, b: ReadDataVersion): ReadDataVersion {
  const join = (x: string | undefined, y: string | undefined): string | undefined => (x === undefined || y === undefined ? undefined : `${x}/${y}`);
  return () => {
    const x = a();
    const y = b();
    if (typeof x !== 'object' && typeof y !== 'object') return join(x, y);
    return Promise.all([x, y]).then(([p, q]) => join(p, q));
  };
}

export function createVersionReader(ds: Versioned, options: VersionReaderOptions = {}): ReadDataVersion {
  const signal = ds.dataVersionSignal;
  if (signal !== undefined && !signal.shared) return () => `l${signal.local()}`;
  const getDataVersion = ds.getDataVersion;
  if (getDataVersion === undefined) return () => undefined;
  const pollMs = options.pollMs ?? DEFAULT_VERSION_POLL_MS;
  const now = options.now ?? (() => performance.now());
  // the version is the polled one plus this process's own writes since; a process that has not
  // written says the polled one alone, as a copy without writes of its own (a read replica) says
  // it, so the same data is cached under the same version whichever copy read it
  const withLocal =
    signal === undefined
      ? (polled: string) => polled
      : (polled: string) => {
          const local = signal.local();
          return local === 0 ? polled : `${polled}.${local}`;
        };

  let polled: string | undefined;
  let polledAt = 0;
  let inFlight: Promise<string | undefined> | undefined;
  let subscribed = false;
  // bumped by each announced change: a poll started before it must not be kept
  let generation = 0;
  const follow = (): void => {
    // followed from the first request on (a feed may hold a connection only while subscribed)
    if (subscribed || options.feed === undefined) return;
    subscribed = true;
    options.feed.subscribe(() => {
      generation++;
      polled = undefined;
      inFlight = undefined;
    });
  };

  const poll = (): Promise<string | undefined> => {
    const started = now();
    const at = generation;
    inFlight = new Promise<string>((resolve) => resolve(getDataVersion.call(ds))).then(
      (version) => {
        if (at !== generation) return withLocal(version);
        inFlight = undefined;
        polled = version;
        polledAt = started;
        return withLocal(version);
      },
      () => {
        inFlight = undefined;
        polled = undefined; // answer uncached; the next request asks again
        return undefined;
      },
    );
    return inFlight;
  };

  return () => {
    follow();
    if (polled !== undefined && now() - polledAt < pollMs) return withLocal(polled);
    return inFlight ?? poll();
  };
}
