/**
 * A run under the store's writer lease (lease.ts): the lease is taken before anything is
 * written, every write goes through its guard, and the run stops at once when it is lost.
 *
 * - Taking it: at once, or (standby) asking again every interval until the holder is gone. A
 *   store that cannot be reached while it is asked for (StoreUnavailableError) is an outage,
 *   waited out with backoff and said like any other (outage.ts).
 * - Losing it: the connection holding it died, so the store is gone or going (a database
 *   restart, a dropped network). Without `follow` the run ends with LeaseLostError. With
 *   `follow` that is an outage too: nothing more is written, the lease is asked for again (the
 *   store's outage waited out meanwhile) and the run goes on from the stored head. Only a lease
 *   another indexer took meanwhile ends the run (LeaseHeldError) or, with `standby`, stands by;
 *   an answer naming this very process is its own dead session, not yet ended by the server,
 *   and is waited out.
 */
import { StoreUnavailableError } from '../sink/unavailable.ts';
import type { DataSink } from '../ports.ts';
import type { IndexerEvent, RunOptions, RunSummary } from './events.ts';
import { describeHolder, LeaseHeldError, LeaseLostError, leasedSink } from './lease.ts';
import type { HeldLease, LeaseHolder, StoreLease } from './lease.ts';
import { createOutage } from './outage.ts';

export interface LeasedRunDeps {
  readonly log: (line: string) => void;
  readonly emit: (event: IndexerEvent) => void;
  readonly now: () => number;
  readonly sleep: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  /** the store outage's retry budget (Infinity: as long as it lasts) and backoff */
  readonly budgetMs: number;
  readonly backoff: { readonly baseDelayMs: number; readonly maxDelayMs: number };
}

/** one run with the sink behind the lease's guard, stopping when `signal` aborts */
export type RunWithSink = (sink: DataSink, runOptions: RunOptions, signal: AbortSignal) => Promise<RunSummary>;

const sameProcess = (a: LeaseHolder | null, b: LeaseHolder | null): boolean => a !== null && b !== null && a.pid === b.pid && a.host === b.host;

const add = (a: RunSummary, b: RunSummary): RunSummary => ({
  blocks: a.blocks + b.blocks,
  transactions: a.transactions + b.transactions,
  reorgs: a.reorgs + b.reorgs,
  held: { unavailable: a.held.unavailable + b.held.unavailable, 'not-yet': a.held['not-yet'] + b.held['not-yet'] },
  indexedHead: b.indexedHead ?? a.indexedHead,
});

const EMPTY: RunSummary = { blocks: 0, transactions: 0, reorgs: 0, held: { unavailable: 0, 'not-yet': 0 }, indexedHead: null };

export async function runLeased(lease: StoreLease, sink: DataSink, runOptions: RunOptions, deps: LeasedRunDeps, runWithSink: RunWithSink): Promise<RunSummary> {
  const { log, emit, now } = deps;
  const { signal } = runOptions;
  const stopped = (): boolean => signal?.aborted === true;
  const outage = createOutage('store', { budgetMs: deps.budgetMs, maxDelayMs: deps.backoff.maxDelayMs }, { log, emit, now });

  /**
   * Take the lease: at once, or asking again until it is free (standby; or this process's own
   * lost session, `previous`); null when the run was stopped meanwhile.
   */
  async function acquire(previous: LeaseHolder | null): Promise<HeldLease | null> {
    const interval = runOptions.standbyIntervalMs ?? 1000;
    let said = '';
    let saidAt = 0;
    let failed = 0;
    for (;;) {
      let attempt;
      try {
        attempt = await lease.tryAcquire();
        outage.resumed();
        failed = 0;
      } catch (e) {
        if (!(e instanceof StoreUnavailableError) || stopped()) throw e;
        outage.waiting(`taking the store's lease: ${e.message}`);
        const backoff = Math.min(deps.backoff.maxDelayMs, deps.backoff.baseDelayMs * 2 ** failed++);
        await deps.sleep(backoff / 2 + Math.random() * (backoff / 2), signal);
        if (stopped()) return null;
        continue;
      }
      if (attempt.acquired) {
        const me = describeHolder(attempt.lease.holder);
        log(`took the store's lease (${me})${said === '' ? '' : `: taking over from ${said}`}`);
        emit({ type: 'lease', state: 'acquired', holder: me });
        return attempt.lease;
      }
      const own = sameProcess(attempt.holder, previous);
      if (!own && runOptions.standby !== true) throw new LeaseHeldError(attempt.holder);
      const holder = describeHolder(attempt.holder);
      // said when the holder changes, and once a minute while it stays
      if (holder !== said || now() - saidAt >= 60_000) {
        if (own) log(`the store still holds this process's lost lease (${holder}): asking again every ${interval} ms until the server ends that session`);
        else {
          log(`standing by: the store's lease is held by ${holder}; asking again every ${interval} ms`);
          emit({ type: 'lease', state: 'standby', holder });
        }
        said = holder;
        saidAt = now();
      }
      await deps.sleep(interval, signal);
      if (stopped()) return null;
    }
  }

  let total = EMPTY;
  let previous: LeaseHolder | null = null;
  let options = runOptions;
  for (;;) {
    const held = await acquire(previous);
    if (held === null) return total;
    previous = held.holder;
    // the run stops at once when the lease is lost, as when it is stopped
    const stop = new AbortController();
    const abort = (): void => stop.abort();
    const onLost = (): void => {
      log(`lost the store's lease: writing nothing more${options.follow === true ? ', taking it again once the store answers' : ''}`);
      emit({ type: 'lease', state: 'lost', holder: null });
      abort();
    };
    signal?.addEventListener('abort', abort, { once: true });
    held.lost.addEventListener('abort', onLost, { once: true });
    if (held.lost.aborted) onLost();
    if (stopped()) abort();
    try {
      // behind the lease's guard: nothing is written once the lease is lost
      total = add(total, await runWithSink(leasedSink(sink, held.lost), options, stop.signal));
      if (!held.lost.aborted) return total;
    } catch (e) {
      if (!held.lost.aborted) throw e;
    } finally {
      signal?.removeEventListener('abort', abort);
      held.lost.removeEventListener('abort', onLost);
      await held.release();
    }
    // lost: an outage with `follow` (the store was emptied once already, if asked: not again)
    if (options.follow !== true) throw new LeaseLostError();
    if (stopped()) return total;
    options = { ...options, reset: false };
  }
}
