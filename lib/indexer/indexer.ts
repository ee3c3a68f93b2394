/**
 * createIndexer: fill a DataSink from a ChainSource, in three steps —
 *
 * - fetch (fetch.ts): blocks fetched ahead with bounded concurrency, each built into a bundle
 *   from complete answers only: what the node cannot answer now is held back and asked again
 *   (hold.ts), never stored as a guess;
 * - order (order.ts): each block must continue the one before; a block that does not, or a
 *   stored head the node may no longer have, starts a proof (several reads over a short window)
 *   before anything is rolled back — a backend a block or two behind is waited out;
 * - write (write.ts): bundles written in order, in batches, each batch atomically, at most one
 *   write in flight while the next batch is fetched.
 *
 * In follow mode, once caught up, each turn also reads the node's pending pool into the store
 * (pending.ts), unless `pending: false`.
 *
 * An outage of the node or the store (nothing answers) is waited out with capped backoff — with
 * `follow` for as long as it lasts, else within a retry budget — and said once a minute
 * (outage.ts, storeWait.ts).
 *
 * The sink's indexed head is the only checkpoint: a run resumes at head + 1, and re-writing a
 * stored block changes nothing, so a crash at any point loses or duplicates nothing. The store's
 * chain identity (chain id, genesis hash) must match the node's.
 */
import { SourceUnavailableError } from '../chain-source.ts';
import type { DataSink } from '../ports.ts';
import { missingFeatures, tracingLine } from './capabilities.ts';
import type { Indexer, IndexerOptions, RunOptions, RunSummary } from './events.ts';
import { createFactCache } from './facts.ts';
import { createFetchStep, createFetchWindow } from './fetch.ts';
import type { FetchBundle } from './fetch.ts';
import { createHold } from './hold.ts';
import type { Hold } from './hold.ts';
import { ChainMismatchError } from './identity.ts';
import type { ChainIdentity } from './identity.ts';
import { createOrderStep } from './order.ts';
import { createOutage } from './outage.ts';
import type { BlockRef, OrderStep } from './order.ts';
import { createProgress } from './progress.ts';
import type { Progress } from './progress.ts';
import { waitOutStore } from './storeWait.ts';
import { createBatchWriter } from './write.ts';
import { runLeased } from './leasedRun.ts';
import { createPendingStep } from './pending.ts';

export type { Indexer, IndexerEvent, IndexerOptions, ProgressEvent, RunOptions, RunSummary } from './events.ts';

const sleepFor = (ms: number, signal: AbortSignal | undefined): Promise<void> =>
  new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/** one run's state and steps */
interface Run {
  /** the sink, with its outages waited out */
  readonly sink: DataSink;
  stored: BlockRef | null;
  nodeHead: number;
  reorgs: number;
  readonly progress: Progress;
  readonly hold: Hold;
  readonly order: OrderStep;
  readonly fetch: FetchBundle;
}

export function createIndexer(options: IndexerOptions): Indexer {
  const { source } = options;
  const log = options.log ?? (() => {});
  const emit = options.onEvent ?? (() => {});
  const batchSize = Math.max(1, options.batchSize ?? 25);
  const concurrency = Math.max(1, options.concurrency ?? 8);
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const pendingLimit = Math.max(1, options.pendingLimit ?? 5000);
  const maxReorgDepth = options.maxReorgDepth ?? 512;
  const now = options.now ?? Date.now;
  const settleAfterBlocks = Math.max(1, options.settleAfterBlocks ?? 10_000);
  const bulkAfterBlocks = Math.max(1, options.bulkAfterBlocks ?? 10_000);
  const cache = createFactCache();

  async function checkIdentity(sink: DataSink, node: ChainIdentity, reset: boolean): Promise<void> {
    if (reset) {
      // said only when there was something to empty (a fresh store has nothing to reset)
      const [head, held] = await Promise.all([sink.getIndexedHead(), sink.getChainIdentity()]);
      await sink.rollbackAbove(-1);
      if (head !== null) {
        emit({ type: 'reset' });
        log(`reset: the store was emptied (it held ${held === null ? 'blocks' : `chain ${held.chainId}`} up to block ${head.number})`);
      }
    }
    const stored = await sink.getChainIdentity();
    if (stored !== null && !reset) {
      if (stored.chainId !== node.chainId || stored.genesisHash !== node.genesisHash) throw new ChainMismatchError(stored, node);
      return;
    }
    await sink.setChainIdentity(node);
  }

  /** Roll back to the newest stored block proven canonical, and say so. */
  async function rollBack(r: Run, detectedAt: number): Promise<void> {
    const { head, depth } = await r.order.walkBack();
    r.stored = head;
    if (depth === 0) return;
    r.reorgs++;
    const ancestor = head === null ? null : head.number;
    log(`reorg at block ${detectedAt}: rolled back ${depth} block(s) to ${ancestor === null ? 'an empty store' : `common ancestor ${ancestor}`}`);
    emit({ type: 'reorg', detectedAt, commonAncestor: ancestor, depth });
  }

  /** Index [start, end] in order; returns early when a block does not continue the one before. */
  async function indexRange(r: Run, start: number, end: number, signal: AbortSignal | undefined): Promise<void> {
    const window = createFetchWindow(r.fetch, start, end, concurrency);
    const writer = createBatchWriter(r.sink, batchSize, (bundles, txs) => {
      const last = bundles[bundles.length - 1];
      if (last !== undefined) r.stored = { number: last.block.number, hash: last.block.hash };
      r.progress.written(bundles.length, txs);
      if (r.stored !== null) emit(r.progress.event(r.stored.number, end, r.nodeHead));
    });
    try {
      let tip = r.stored;
      for (let n = start; n <= end; n++) {
        if (signal?.aborted) break;
        const pending = window.take(n);
        if (pending === undefined) break;
        const bundle = await pending;
        // no block there (after a few asks): the loop asks for the head again and proves where the chain stands
        if (bundle === null) break;
        if (tip !== null && tip.number === n - 1 && bundle.block.parentHash !== tip.hash) {
          await writer.drain();
          const parentOf = tip;
          const verdict = await r.hold.retry(`the proof of block ${parentOf.number}`, () => r.order.checkParent(bundle, parentOf));
          if (verdict === 'reorg') await rollBack(r, n);
          else log(`block ${n} does not continue block ${parentOf.number} in this answer, but block ${parentOf.number} is still canonical: asking again`);
          return;
        }
        await writer.push(bundle);
        tip = { number: n, hash: bundle.block.hash };
      }
      await writer.drain();
    } finally {
      window.close();
    }
  }

  async function run(runOptions: RunOptions = {}): Promise<RunSummary> {
    const lease = options.lease;
    if (lease === undefined) return runWithSink(options.sink, runOptions, runOptions.signal);
    return runLeased(lease, options.sink, runOptions, { log, emit, now, sleep: sleepFor, budgetMs: budgetFor(runOptions), backoff: backoffOf() }, runWithSink);
  }

  /** how long an outage is waited out: as long as it lasts with `follow`, else 120 s (or as told) */
  const budgetFor = (runOptions: RunOptions): number => options.retryForMs ?? (runOptions.follow === true ? Infinity : 120_000);
  const backoffOf = (): { baseDelayMs: number; maxDelayMs: number } => ({ baseDelayMs: options.hold?.baseDelayMs ?? 200, maxDelayMs: options.hold?.maxDelayMs ?? 5000 });

  async function runWithSink(base: DataSink, runOptions: RunOptions, signal: AbortSignal | undefined): Promise<RunSummary> {
    const { follow = false } = runOptions;
    const from = runOptions.from ?? 0;
    const to = runOptions.to;
    const sleep = (ms: number): Promise<void> => sleepFor(ms, signal);
    const aborted = (): boolean => signal?.aborted === true;
    const budgetMs = budgetFor(runOptions);
    const backoff = backoffOf();
    const outageDeps = { log, emit, now };
    const sink = waitOutStore(base, createOutage('store', { budgetMs, maxDelayMs: backoff.maxDelayMs }, outageDeps), backoff, { sleep, aborted });
    const nodeOutage = createOutage('node', { budgetMs, maxDelayMs: backoff.maxDelayMs }, outageDeps);
    const hold = createHold({ budgetMs, ...options.hold }, { log, onHold: (report) => emit({ type: 'held', ...report }), sleep, now, aborted, outage: nodeOutage });

    const [chainId, genesisHash, caps, firstHead] = await hold.retry('start-up', () =>
      Promise.all([source.chainId(), source.blockHash(0), source.capabilities(), source.headNumber()]),
    );
    if (genesisHash === null) throw new Error('the node has no block 0');
    await checkIdentity(sink, { chainId, genesisHash }, runOptions.reset ?? false);

    const missing = missingFeatures(caps);
    log(`chain ${chainId}, genesis ${genesisHash}, node head ${firstHead}`);
    log(tracingLine(caps));
    if (missing.length === 0) log('node capabilities: call traces, prestate diffs and block receipts — nothing will be missing');
    for (const m of missing) log(`missing on this node: ${m}`);

    const r: Run = {
      sink,
      stored: await sink.getIndexedHead(),
      nodeHead: firstHead,
      reorgs: 0,
      progress: createProgress(now),
      hold,
      order: createOrderStep(source, sink, { ...options.reorgProof, maxReorgDepth, sleep }),
      fetch: createFetchStep(source, caps, cache, hold),
    };
    const pool = follow && options.pending !== false ? createPendingStep(source, sink, { log, now, limit: pendingLimit, cache, aborted }) : null;
    emit({ type: 'start', chainId, genesisHash, from: r.stored === null ? from : r.stored.number + 1, nodeHead: firstHead, capabilities: caps, missing });
    /** whether the sink is in bulk mode (beginBulk called, not settled since: maybe by a run that stopped or crashed) */
    let bulk = (await sink.inBulk?.()) ?? false;
    const summary = (): RunSummary => ({
      blocks: r.progress.blocks,
      transactions: r.progress.transactions,
      reorgs: r.reorgs,
      held: hold.counts(),
      indexedHead: r.stored?.number ?? null,
    });

    /** Is the stored head still the node's? Rolled back when proven not; a hold while unproven. */
    const checkStoredHead = async (): Promise<boolean> => {
      if (r.stored === null) return true;
      const verdict = await r.order.verify(r.stored);
      if (verdict === 'canonical') return true;
      if (verdict === 'replaced') {
        await rollBack(r, r.stored.number);
        return false;
      }
      throw new SourceUnavailableError(`the node's answers about stored block ${r.stored.number} disagree (a backend behind?)`, 'not-yet');
    };

    /** one turn of the loop: false when the run is done */
    const turn = async (first: boolean): Promise<boolean> => {
      if (first && !(await checkStoredHead())) return true;
      r.nodeHead = await source.headNumber();
      nodeOutage.resumed();
      const start = r.stored === null ? from : r.stored.number + 1;
      const target = to === undefined ? r.nodeHead : Math.min(to, r.nodeHead);
      if (start > target) {
        if (!(await checkStoredHead())) return true;
        if (sink.settle !== undefined && (bulk || r.progress.unsettled >= settleAfterBlocks)) {
          const t0 = now();
          await sink.settle();
          log(`settled the store after ${r.progress.unsettled} blocks written${bulk ? ' in bulk' : ''} (${((now() - t0) / 1000).toFixed(1)} s)`);
        }
        r.progress.unsettled = 0;
        bulk = false;
        emit({ type: 'caught-up', indexedHead: r.stored?.number ?? null, nodeHead: r.nodeHead });
        if (!follow || (to !== undefined && start > to)) return false;
        await pool?.turn(r.stored?.number ?? null);
        await sleep(pollIntervalMs);
        return true;
      }
      if (!bulk && sink.beginBulk !== undefined && target - start + 1 >= bulkAfterBlocks) {
        await sink.beginBulk();
        bulk = true;
        log(`bulk catch-up: ${target - start + 1} blocks behind, read-only upkeep deferred until caught up`);
      }
      await indexRange(r, start, target, signal);
      return true;
    };

    let first = true;
    let attempt = 0;
    let since = 0;
    for (;;) {
      if (signal?.aborted) break;
      try {
        if (!(await turn(first))) break;
        first = false;
        attempt = 0;
      } catch (e) {
        // stopped while waiting for the node or the store: a clean stop
        if (signal?.aborted) break;
        // the node could not answer this turn: wait and ask again (within the hold's budget)
        if (!(e instanceof SourceUnavailableError)) throw e;
        if (attempt === 0) since = now();
        try {
          await hold.pause('indexing', e, ++attempt, since);
        } catch (held) {
          if (signal?.aborted) break;
          throw held;
        }
      }
    }
    return summary();
  }

  return { run };
}
