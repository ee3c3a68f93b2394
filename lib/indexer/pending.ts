/**
 * The pending pool, followed: once the indexer has caught up (follow mode), it reads the node's
 * pool (ChainSource.readPendingPool: txpool_content, else a pending-transaction filter, else the
 * pending block), diffs it against the pending transactions stored (poolDiff.ts) and writes what
 * is new and drops what was replaced or is gone. Mined ones leave with their block: one gone from
 * the pool while the node has a block the store has not is kept until a later turn (minedSince).
 *
 * Bounded: at most `limit` transactions are read from the pool and from the store per turn. A
 * node without any pool method, or a store that cannot drop pending rows, is said once and the
 * step does nothing more. A read of the node that fails is said (at most once a minute) and tried
 * again next turn: the pool never holds up the blocks. The store's failures are the run's, as
 * for blocks (an outage waited out by the sink's wrapper, a lost lease ending the run).
 */
import type { ChainSource, PendingPoolMethod } from '../chain-source.ts';
import type { Address } from '../domain/records.ts';
import { pendingRecord } from '../ingest/pending.ts';
import type { DataSink } from '../ports.ts';
import type { FactCache } from './facts.ts';
import { diffPool } from './poolDiff.ts';
import { EMPTY_HEX } from '../domain/hex.ts';

/** what one turn did */
export interface PendingTurn {
  readonly pool: number;
  readonly added: number;
  readonly replaced: number;
  readonly gone: number;
}

export interface PendingStep {
  /** read the pool and bring the store's pending transactions in line; null when the step is off or the node failed this turn */
  turn(head: number | null): Promise<PendingTurn | null>;
}

export interface PendingStepDeps {
  readonly log: (line: string) => void;
  readonly now: () => number;
  /** the most transactions read from the pool (and from the store) per turn */
  readonly limit: number;
  /** contracts the indexer has seen (a pending call to one is a contract_call) */
  readonly cache: FactCache;
  readonly aborted: () => boolean;
}

const HOW: Record<Exclude<PendingPoolMethod, 'none'>, string> = {
  txpool_content: 'txpool_content (the whole pool each turn)',
  'pending-filter': 'a pending-transaction filter (eth_newPendingTransactionFilter; transactions already in the pool before it are not seen)',
  'pending-block': 'the pending block (only the transactions the node would put in its next block)',
};

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export function createPendingStep(source: ChainSource, sink: DataSink, deps: PendingStepDeps): PendingStep {
  let off = false;
  let method: PendingPoolMethod | null = null;
  let lastComplaint = -Infinity;
  let firstRead = true;

  const turnOff = (line: string): null => {
    off = true;
    deps.log(line);
    return null;
  };

  /** whether the recipient holds code: known contracts at once, others asked at the head (remembered when they do) */
  const contractsAmong = async (addresses: readonly Address[], head: number | null): Promise<Set<Address>> => {
    const out = new Set<Address>(addresses.filter((a) => deps.cache.contracts.has(a)));
    const unknown = [...new Set(addresses.filter((a) => !out.has(a)))];
    if (head === null || unknown.length === 0) return out;
    const codes = await Promise.all(unknown.map((a) => source.getCode(a, head)));
    unknown.forEach((a, i) => {
      if ((codes[i] ?? EMPTY_HEX) === EMPTY_HEX) return;
      deps.cache.contracts.add(a);
      out.add(a);
    });
    return out;
  };

  /** the node's answer, or null (said at most once a minute) when it could not give one now */
  const fromNode = async <T>(f: () => Promise<T>): Promise<T | null> => {
    try {
      return await f();
    } catch (e) {
      if (deps.aborted()) return null;
      const t = deps.now();
      if (t - lastComplaint >= 60_000) {
        lastComplaint = t;
        deps.log(`pending pool: not read this turn (${message(e)}); asked again next turn`);
      }
      return null;
    }
  };

  /**
   * Whether the node has a block past `head` (the stored head) now, after its pool was read: a
   * transaction gone from the pool may then have been mined into a block not stored yet, and is
   * not dropped this turn — it leaves with its block, or is dropped on a turn with no new block.
   * Without it, a mined transaction answered 404 between the pool read and its block's write.
   */
  const minedSince = async (head: number | null): Promise<boolean> => {
    if (head === null) return false;
    const now = await fromNode(() => source.headNumber());
    return now === null || now > head;
  };

  const once = async (head: number | null): Promise<PendingTurn | null> => {
    const read = source.readPendingPool;
    const probe = source.pendingPoolMethod;
    if (read === undefined || probe === undefined) return turnOff('pending pool: this chain source reads no pending pool: pending transactions are not indexed');
    const stored = sink.pendingTransactions;
    const drop = sink.dropPendingTransactions;
    if (stored === undefined || drop === undefined) return turnOff('pending pool: this store cannot drop pending transactions: pending transactions are not indexed');
    if (method === null) {
      const found = await fromNode(() => probe.call(source));
      if (found === null) return null;
      if (found === 'none') {
        return turnOff('pending pool: the node gives none (no txpool_content, no eth_newPendingTransactionFilter, no pending block): pending transactions are not indexed');
      }
      method = found;
      deps.log(`pending pool: read with ${HOW[found]}, at most ${deps.limit} transactions a turn`);
    }
    // the stored ones are asked after where the node shows its pool only in part (a filter, the pending block)
    const held = await stored.call(sink, deps.limit);
    const pool = await fromNode(() => read.call(source, deps.limit, held.map((p) => p.hash)));
    if (pool === null) return null;
    const diff = diffPool(held, pool.transactions, pool.truncated);
    if (diff.added.length > 0) {
      const contracts = await fromNode(() => contractsAmong(diff.added.flatMap((t) => (t.to === null ? [] : [t.to])), head));
      if (contracts === null) return null;
      const seenAt = deps.now();
      await sink.writePendingTransactions(diff.added.map((t) => pendingRecord(t, seenAt, (a) => contracts.has(a))));
    }
    const gone = diff.gone.length > 0 && (await minedSince(head)) ? [] : diff.gone;
    const dropped = [...diff.replaced, ...gone];
    if (dropped.length > 0) await drop.call(sink, dropped);
    const result = { pool: pool.transactions.length, added: diff.added.length, replaced: diff.replaced.length, gone: gone.length };
    if (firstRead) {
      firstRead = false;
      deps.log(`pending pool: ${result.pool} transaction(s) in the node's pool${pool.truncated ? ` (the first ${deps.limit}: the pool holds more)` : ''}`);
    }
    return result;
  };

  return {
    async turn(head) {
      if (off || deps.aborted()) return null;
      return once(head);
    },
  };
}
