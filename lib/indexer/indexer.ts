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
import type { ChainSource } from '../chain-source.ts';
import { SourceUnavailableError } from '../chain-source.ts';
import type { DataSink } from '../ports.ts';
import { missingFeatures, tracingLine } from './capabilities.ts';
import type { Indexer, IndexerEvent, IndexerOptions, RunOptions, RunSummary } from './events.ts';
import type { FactCache } from './facts.ts';
import { createFactCache } from './facts.ts';
import { createFetchStep, createFetchWindow } from './fetch.ts';
import { entryPointsWith } from '../userops/entryPoints.ts';
import { backfillUserOperations } from './userOpsBackfill.ts';
import type { FetchBundle } from './fetch.ts';
import { createHold } from './hold.ts';
import type { Hold } from './hold.ts';
import { ChainMismatchError } from './identity.ts';
import type { ChainIdentity } from './identity.ts';
import { createOrderStep } from './order.ts';
import { createOutage } from './outage.ts';
import type { Outage } from './outage.ts';
import type { BlockRef, OrderStep } from './order.ts';
import { createProgress } from './progress.ts';
import type { Progress } from './progress.ts';
import { waitOutStore } from './storeWait.ts';
import { createBatchWriter } from './write.ts';
import { runLeased } from './leasedRun.ts';
import type { RunWithSink } from './leasedRun.ts';
import { createPendingStep } from './pending.ts';
import type { PendingStep } from './pending.ts';

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

/** the indexer's options, resolved once */
interface Settings {
  readonly options: IndexerOptions;
  readonly source: ChainSource;
  readonly log: (line: string) => void;
  readonly emit: (event: IndexerEvent) => void;
  readonly batchSize: number;
  readonly concurrency: number;
  readonly pollIntervalMs: number;
  readonly pendingLimit: number;
  readonly maxReorgDepth: number;
  readonly now: () => number;
  readonly settleAfterBlocks: number;
  readonly bulkAfterBlocks: number;
  readonly cache: FactCache;
}

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

/** a run's loop: the run, what it was asked, and what its turns share */
interface Loop extends Run {
  readonly signal: AbortSignal | undefined;
  readonly follow: boolean;
  readonly from: number;
  readonly to: number | undefined;
  readonly sleep: (ms: number) => Promise<void>;
  readonly nodeOutage: Outage;
  readonly pool: PendingStep | null;
  /** whether the sink is in bulk mode (beginBulk called, not settled since: maybe by a run that stopped or crashed) */
  bulk: boolean;
}

export function createIndexer(options: IndexerOptions): Indexer {
  const x: Settings = {
    options,
    source: options.source,
    log: options.log ?? (() => {}),
    emit: options.onEvent ?? (() => {}),
    batchSize: Math.max(1, options.batchSize ?? 25),
    concurrency: Math.max(1, options.concurrency ?? 8),
    pollIntervalMs: options.pollIntervalMs ?? 1000,
    pendingLimit: Math.max(1, options.pendingLimit ?? 5000),
    maxReorgDepth: options.maxReorgDepth ?? 512,
    now: options.now ?? Date.now,
    settleAfterBlocks: Math.max(1, options.settleAfterBlocks ?? 10_000),
    bulkAfterBlocks: Math.max(1, options.bulkAfterBlocks ?? 10_000),
    cache: createFactCache(),
  };
  return { run: (runOptions) => run(x, runOptions) };
}

async function run(x: Settings, runOptions: RunOptions = {}): Promise<RunSummary> {
  const { log, emit, now } = x;
  const lease = x.options.lease;
  const withSink: RunWithSink = (base, opts, signal) => runWithSink(x, base, opts, signal);
  if (lease === undefined) return runWithSink(x, x.options.sink, runOptions, runOptions.signal);
  return runLeased(lease, x.options.sink, runOptions, { log, emit, now, sleep: sleepFor, budgetMs: budgetFor(x, runOptions), backoff: backoffOf(x) }, withSink);
}

/** how long an outage is waited out: as long as it lasts with `follow`, else 120 s (or as told) */
const budgetFor = (x: Settings, runOptions: RunOptions): number => x.options.retryForMs ?? (runOptions.follow === true ? Infinity : 120_000);
const backoffOf = (x: Settings): { baseDelayMs: number; maxDelayMs: number } => ({
  baseDelayMs: x.options.hold?.baseDelayMs ?? 200,
  maxDelayMs: x.options.hold?.maxDelayMs ?? 5000,
});

async function checkIdentity(x: Settings, sink: DataSink, node: ChainIdentity, reset: boolean): Promise<void> {
  if (reset) {
    // said only when there was something to empty (a fresh store has nothing to reset)
    const [head, held] = await Promise.all([sink.getIndexedHead(), sink.getChainIdentity()]);
    await sink.rollbackAbove(-1);
    if (head !== null) {
      x.emit({ type: 'reset' });
      x.log(`reset: the store was emptied (it held ${held === null ? 'blocks' : `chain ${held.chainId}`} up to block ${head.number})`);
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
async function rollBack(x: Settings, r: Run, detectedAt: number): Promise<void> {
  const { head, depth } = await r.order.walkBack();
  r.stored = head;
  if (depth === 0) return;
  r.reorgs++;
  const ancestor = head === null ? null : head.number;
  x.log(`reorg at block ${detectedAt}: rolled back ${depth} block(s) to ${ancestor === null ? 'an empty store' : `common ancestor ${ancestor}`}`);
  x.emit({ type: 'reorg', detectedAt, commonAncestor: ancestor, depth });
}

/** Index [start, end] in order; returns early when a block does not continue the one before. */
async function indexRange(x: Settings, r: Run, start: number, end: number, signal: AbortSignal | undefined): Promise<void> {
  const window = createFetchWindow(r.fetch, start, end, x.concurrency);
  const writer = createBatchWriter(r.sink, x.batchSize, (bundles, txs) => {
    const last = bundles[bundles.length - 1];
    if (last !== undefined) r.stored = { number: last.block.number, hash: last.block.hash };
    r.progress.written(bundles.length, txs);
    if (r.stored !== null) x.emit(r.progress.event(r.stored.number, end, r.nodeHead));
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
        if (verdict === 'reorg') await rollBack(x, r, n);
        else x.log(`block ${n} does not continue block ${parentOf.number} in this answer, but block ${parentOf.number} is still canonical: asking again`);
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

/** Start a run: the node's identity checked against the store's, its capabilities said, the loop's state made. */
async function startRun(x: Settings, base: DataSink, runOptions: RunOptions, signal: AbortSignal | undefined): Promise<Loop> {
  const { source, log, emit, now, options } = x;
  const { follow = false } = runOptions;
  const from = runOptions.from ?? 0;
  const sleep = (ms: number): Promise<void> => sleepFor(ms, signal);
  const aborted = (): boolean => signal?.aborted === true;
  const budgetMs = budgetFor(x, runOptions);
  const backoff = backoffOf(x);
  const outageDeps = { log, emit, now };
  const sink = waitOutStore(base, createOutage('store', { budgetMs, maxDelayMs: backoff.maxDelayMs }, outageDeps), backoff, { sleep, aborted });
  const nodeOutage = createOutage('node', { budgetMs, maxDelayMs: backoff.maxDelayMs }, outageDeps);
  const hold = createHold({ budgetMs, ...options.hold }, { log, onHold: (report) => emit({ type: 'held', ...report }), sleep, now, aborted, outage: nodeOutage });

  const [chainId, genesisHash, caps, firstHead] = await hold.retry('start-up', () =>
    Promise.all([source.chainId(), source.blockHash(0), source.capabilities(), source.headNumber()]),
  );
  if (genesisHash === null) throw new Error('the node has no block 0');
  await checkIdentity(x, sink, { chainId, genesisHash }, runOptions.reset ?? false);

  const missing = missingFeatures(caps);
  log(`chain ${chainId}, genesis ${genesisHash}, node head ${firstHead}`);
  log(tracingLine(caps));
  if (missing.length === 0) log('node capabilities: call traces, prestate diffs and block receipts — nothing will be missing');
  for (const m of missing) log(`missing on this node: ${m}`);

  const stored = await sink.getIndexedHead();
  const progress = createProgress(now);
  const order = createOrderStep(source, sink, { ...options.reorgProof, maxReorgDepth: x.maxReorgDepth, sleep });
  const fetch = createFetchStep(source, caps, x.cache, hold, { entryPoints: entryPointsWith(options.entryPoints) });
  const pool = follow && options.pending !== false ? createPendingStep(source, sink, { log, now, limit: x.pendingLimit, cache: x.cache, aborted }) : null;
  emit({ type: 'start', chainId, genesisHash, from: stored === null ? from : stored.number + 1, nodeHead: firstHead, capabilities: caps, missing });
  const bulk = (await sink.inBulk?.()) ?? false;
  return {
    sink,
    stored,
    nodeHead: firstHead,
    reorgs: 0,
    progress,
    hold,
    order,
    fetch,
    signal,
    follow,
    from,
    to: runOptions.to,
    sleep,
    nodeOutage,
    pool,
    bulk,
  };
}

/** Is the stored head still the node's? Rolled back when proven not; a hold while unproven. */
async function checkStoredHead(x: Settings, r: Run): Promise<boolean> {
  if (r.stored === null) return true;
  const verdict = await r.order.verify(r.stored);
  if (verdict === 'canonical') return true;
  if (verdict === 'replaced') {
    await rollBack(x, r, r.stored.number);
    return false;
  }
  throw new SourceUnavailableError(`the node's answers about stored block ${r.stored.number} disagree (a backend behind?)`, 'not-yet');
}

/** one turn of the loop: false when the run is done */
async function turn(x: Settings, r: Loop, first: boolean): Promise<boolean> {
  const { sink, to } = r;
  if (first && !(await checkStoredHead(x, r))) return true;
  r.nodeHead = await x.source.headNumber();
  r.nodeOutage.resumed();
  const start = r.stored === null ? r.from : r.stored.number + 1;
  const target = to === undefined ? r.nodeHead : Math.min(to, r.nodeHead);
  if (start > target) {
    if (!(await checkStoredHead(x, r))) return true;
    if (sink.settle !== undefined && (r.bulk || r.progress.unsettled >= x.settleAfterBlocks)) {
      const t0 = x.now();
      await sink.settle();
      x.log(`settled the store after ${r.progress.unsettled} blocks written${r.bulk ? ' in bulk' : ''} (${((x.now() - t0) / 1000).toFixed(1)} s)`);
    }
    r.progress.unsettled = 0;
    r.bulk = false;
    x.emit({ type: 'caught-up', indexedHead: r.stored?.number ?? null, nodeHead: r.nodeHead });
    if (!r.follow || (to !== undefined && start > to)) return false;
    await r.pool?.turn(r.stored?.number ?? null);
    await r.sleep(x.pollIntervalMs);
    return true;
  }
  if (!r.bulk && sink.beginBulk !== undefined && target - start + 1 >= x.bulkAfterBlocks) {
    await sink.beginBulk();
    r.bulk = true;
    x.log(`bulk catch-up: ${target - start + 1} blocks behind, read-only upkeep deferred until caught up`);
  }
  await indexRange(x, r, start, target, r.signal);
  return true;
}

async function runWithSink(x: Settings, base: DataSink, runOptions: RunOptions, signal: AbortSignal | undefined): Promise<RunSummary> {
  const r = await startRun(x, base, runOptions, signal);
  if (runOptions.userOperationsBackfill === true) {
    const deps = { source: x.source, sink: r.sink, entryPoints: entryPointsWith(x.options.entryPoints), concurrency: x.concurrency, log: x.log, aborted: () => signal?.aborted === true };
    await r.hold.retry('the user-operation backfill', async () => backfillUserOperations({ ...deps, caps: await x.source.capabilities() }));
  }
  let first = true;
  let attempt = 0;
  let since = 0;
  for (;;) {
    if (signal?.aborted) break;
    try {
      if (!(await turn(x, r, first))) break;
      first = false;
      attempt = 0;
    } catch (e) {
      // stopped while waiting for the node or the store: a clean stop
      if (signal?.aborted) break;
      // the node could not answer this turn: wait and ask again (within the hold's budget)
      if (!(e instanceof SourceUnavailableError)) throw e;
      if (attempt === 0) since = x.now();
      try {
        await r.hold.pause('indexing', e, ++attempt, since);
      } catch (held) {
        if (signal?.aborted) break;
        throw held;
      }
    }
  }
  return { blocks: r.progress.blocks, transactions: r.progress.transactions, reorgs: r.reorgs, held: r.hold.counts(), indexedHead: r.stored?.number ?? null };
}
