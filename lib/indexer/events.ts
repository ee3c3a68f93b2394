/** The indexer's public types: its options, the events it emits, a run's options and summary. */
import type { EntryPointVersion } from '../domain/userOperations.ts';
import type { Hash } from '../domain/records.ts';
import type { DataSink } from '../ports.ts';
import type { ChainCapabilities, ChainSource } from '../chain-source.ts';
import type { HoldOptions, HoldReport } from './hold.ts';
import type { ProofOptions } from './order.ts';
import type { StoreLease } from './lease.ts';

export interface ProgressEvent {
  readonly type: 'progress';
  /** highest block written */
  readonly indexedHead: number;
  /** the block this run indexes towards (node head, or --to) */
  readonly targetHead: number;
  /** the node's head when last asked */
  readonly nodeHead: number;
  /** blocks and transactions written by this run */
  readonly blocks: number;
  readonly transactions: number;
  /** rates over the last few seconds */
  readonly blocksPerSecond: number;
  readonly transactionsPerSecond: number;
  /** seconds to reach targetHead at the current rate; null when unknown */
  readonly etaSeconds: number | null;
  /** nodeHead − indexedHead */
  readonly headLag: number;
  readonly elapsedMs: number;
}

export type IndexerEvent =
  | {
      readonly type: 'start';
      readonly chainId: number;
      readonly genesisHash: Hash;
      readonly from: number;
      readonly nodeHead: number;
      readonly capabilities: ChainCapabilities;
      /** what the index will lack on this node, in plain words */
      readonly missing: readonly string[];
    }
  | ProgressEvent
  | { readonly type: 'reorg'; readonly detectedAt: number; readonly commonAncestor: number | null; readonly depth: number }
  | { readonly type: 'caught-up'; readonly indexedHead: number | null; readonly nodeHead: number }
  | { readonly type: 'reset' }
  | { readonly type: 'warning'; readonly message: string }
  /** a step the node could not answer now, held back and asked again (nothing stored from it) */
  | ({ readonly type: 'held' } & HoldReport)
  /** the node or the store is not answering (one event per failed attempt); `resumed` once it answers again */
  | { readonly type: 'waiting'; readonly on: 'node' | 'store'; readonly attempt: number; readonly sinceMs: number; readonly message: string }
  | { readonly type: 'resumed'; readonly on: 'node' | 'store'; readonly afterMs: number }
  | { readonly type: 'lease'; readonly state: 'acquired' | 'standby' | 'lost'; readonly holder: string | null };

export interface IndexerOptions {
  readonly source: ChainSource;
  readonly sink: DataSink;
  /**
   * the store's writer lease (lease.ts), taken at the start of a run before anything is written
   * and held until it ends; default none (the caller guarantees a single writer)
   */
  readonly lease?: StoreLease;
  /** plain log lines (start-up facts, warnings); default none */
  readonly log?: (line: string) => void;
  /** structured events for progress rendering */
  readonly onEvent?: (event: IndexerEvent) => void;
  /** blocks per atomic write (default 25) */
  readonly batchSize?: number;
  /** blocks fetched at the same time (default 8) */
  readonly concurrency?: number;
  /** follow mode: how often to ask for a new head (default 1000 ms) */
  readonly pollIntervalMs?: number;
  /**
   * follow mode: once caught up, each turn reads the node's pending pool into the store's pending
   * transactions, and drops those replaced or gone from the pool (pending.ts; default true)
   */
  readonly pending?: boolean;
  /** the most pending transactions read from the pool per turn (default 5,000) */
  readonly pendingLimit?: number;
  /** deepest rollback accepted before refusing (default 512) */
  readonly maxReorgDepth?: number;
  /** how a replaced block is proven: reads that must all agree, and the time between them (default 3 reads, 400 ms) */
  readonly reorgProof?: ProofOptions;
  /**
   * waiting out a node that cannot answer now: backoff (default 200 ms doubling to 5 s) and how
   * long one step may stay unanswered before the run fails (default: forever with `follow`, else 120 s)
   */
  readonly hold?: HoldOptions;
  /**
   * how long an outage of the node or the store (nothing answers: connection refused, a paused
   * node, a database restarting) is waited out before the run fails with an OutageError
   * (default: forever with `follow`, else 120 s). Waits are logged once a minute and emitted as
   * `waiting` / `resumed` events.
   */
  readonly retryForMs?: number;
  /** clock for rates (default Date.now) */
  readonly now?: () => number;
  /**
   * on catching up after writing at least this many blocks since it was last caught up (a bulk
   * catch-up, not the few blocks of each poll in follow mode), call the sink's settle() (planner
   * statistics, Postgres visibility) before following on (default 10,000)
   */
  readonly settleAfterBlocks?: number;
  /**
   * before indexing a stretch at least this many blocks behind the target, call the sink's
   * beginBulk() (it may defer read-only upkeep such as secondary indexes), and settle() on
   * catching up after it, however many blocks were written (default 10,000)
   */
  readonly bulkAfterBlocks?: number;
  /**
   * ERC-4337 EntryPoints whose bundles are decoded into user operations, beyond the canonical
   * v0.6, v0.7 and v0.8 deployments (lib/userops/): address → version (an address listed here
   * overrides a canonical one's version)
   */
  readonly entryPoints?: Readonly<Record<string, EntryPointVersion>>;
}

export interface RunOptions {
  /** first block when the store is empty (default 0); a non-empty store resumes at its head + 1 */
  readonly from?: number;
  /** last block to index (default: the node's head) */
  readonly to?: number;
  /** keep following new blocks until `signal` aborts */
  readonly follow?: boolean;
  /** delete everything first and adopt the node's chain identity */
  readonly reset?: boolean;
  readonly signal?: AbortSignal;
  /**
   * with a lease held by another indexer: wait, asking again every `standbyIntervalMs` (default
   * 1000), and take over once it is free; without: fail at once with LeaseHeldError
   */
  readonly standby?: boolean;
  readonly standbyIntervalMs?: number;
  /**
   * before indexing: read again from the node the stored blocks that hold EntryPoint bundles and
   * store their user operations (a store indexed before they were derived; userOpsBackfill.ts)
   */
  readonly userOperationsBackfill?: boolean;
}

export interface RunSummary {
  readonly blocks: number;
  readonly transactions: number;
  readonly reorgs: number;
  /** steps held back because the node could not answer them now, by reason */
  readonly held: Readonly<Record<'unavailable' | 'not-yet', number>>;
  readonly indexedHead: number | null;
}

export interface Indexer {
  run(options?: RunOptions): Promise<RunSummary>;
}
