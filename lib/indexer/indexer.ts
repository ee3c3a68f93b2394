/**
 * createIndexer: fill a DataSink from a ChainSource.
 *
 * - Blocks are fetched ahead with bounded concurrency and written in order, in batches, each
 *   batch atomically (DataSink.writeBlocks). One batch is written while the next is fetched
 *   (at most one write in flight), so a slow store does not stall the node. The sink's indexed
 *   head is the only checkpoint:
 *   a run resumes at head + 1, and re-writing a stored block changes nothing, so a crash at any
 *   point loses or duplicates nothing.
 * - Reorgs: a block whose parent hash is not the stored head's hash (or a stored head the node
 *   no longer has) starts a walk back: roll the store back one block at a time until its head
 *   is a block the node has, then index forwards again.
 * - The store's chain identity (chain id, genesis hash) must match the node's.
 */
import type { BlockBundle, Hash } from '../domain/records.ts';
import type { DataSink } from '../ports.ts';
import type { ChainCapabilities, ChainSource } from '../chain-source.ts';
import { buildBundle, planBlock } from '../ingest/block.ts';
import type { BlockPayload } from '../ingest/block.ts';
import { missingFeatures } from './capabilities.ts';
import { createFactCache, gatherFacts } from './facts.ts';
import { ChainMismatchError, ReorgTooDeepError } from './identity.ts';
import type { ChainIdentity } from './identity.ts';

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
  | { readonly type: 'warning'; readonly message: string };

export interface IndexerOptions {
  readonly source: ChainSource;
  readonly sink: DataSink;
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
  /** deepest rollback accepted before refusing (default 512) */
  readonly maxReorgDepth?: number;
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
}

export interface RunSummary {
  readonly blocks: number;
  readonly transactions: number;
  readonly reorgs: number;
  readonly indexedHead: number | null;
}

export interface Indexer {
  run(options?: RunOptions): Promise<RunSummary>;
}

const sleep = (ms: number, signal: AbortSignal | undefined): Promise<void> =>
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

export function createIndexer(options: IndexerOptions): Indexer {
  const { source, sink } = options;
  const log = options.log ?? (() => {});
  const emit = options.onEvent ?? (() => {});
  const batchSize = Math.max(1, options.batchSize ?? 25);
  const concurrency = Math.max(1, options.concurrency ?? 8);
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const maxReorgDepth = options.maxReorgDepth ?? 512;
  const now = options.now ?? Date.now;
  const settleAfterBlocks = Math.max(1, options.settleAfterBlocks ?? 10_000);
  const bulkAfterBlocks = Math.max(1, options.bulkAfterBlocks ?? 10_000);
  const cache = createFactCache();

  async function fetchBundle(n: number, caps: ChainCapabilities): Promise<BlockBundle | null> {
    const block = await source.getBlock(n);
    if (block === null) return null;
    const [receipts, traces, prestate] = await Promise.all([
      source.getReceipts(block),
      caps.traces ? source.traceCalls(block) : Promise.resolve(null),
      caps.prestate ? source.tracePrestate(block) : Promise.resolve(null),
    ]);
    const payload: BlockPayload = { block, receipts, traces, prestate };
    const plan = planBlock(payload);
    const facts = await gatherFacts(source, payload, plan, cache, { prestate: caps.prestate });
    return buildBundle(payload, plan, facts);
  }

  async function checkIdentity(node: ChainIdentity, reset: boolean): Promise<void> {
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

  async function run(runOptions: RunOptions = {}): Promise<RunSummary> {
    const { follow = false, signal } = runOptions;
    const from = runOptions.from ?? 0;
    const to = runOptions.to;
    const [chainId, genesisHash, caps, firstHead] = await Promise.all([
      source.chainId(),
      source.blockHash(0),
      source.capabilities(),
      source.headNumber(),
    ]);
    if (genesisHash === null) throw new Error('the node has no block 0');
    await checkIdentity({ chainId, genesisHash }, runOptions.reset ?? false);

    const missing = missingFeatures(caps);
    log(`chain ${chainId}, genesis ${genesisHash}, node head ${firstHead}`);
    if (missing.length === 0) log('node capabilities: call traces, prestate diffs and block receipts — nothing will be missing');
    for (const m of missing) log(`missing on this node: ${m}`);

    let stored = await sink.getIndexedHead();
    emit({ type: 'start', chainId, genesisHash, from: stored === null ? from : stored.number + 1, nodeHead: firstHead, capabilities: caps, missing });

    // progress accounting
    const started = now();
    let blocks = 0;
    let transactions = 0;
    let reorgs = 0;
    let nodeHead = firstHead;
    /** blocks written since the indexer was last caught up */
    let unsettled = 0;
    /** whether the sink is in bulk mode (beginBulk called, not settled since: maybe by a run that stopped or crashed) */
    let bulk = (await sink.inBulk?.()) ?? false;
    const window: { t: number; blocks: number; txs: number }[] = [{ t: started, blocks: 0, txs: 0 }];
    const report = (indexedHead: number, target: number): void => {
      const t = now();
      window.push({ t, blocks, txs: transactions });
      while (window.length > 2 && (window[0]?.t ?? t) < t - 10_000) window.shift();
      const first = window[0] ?? { t, blocks, txs: transactions };
      const dt = (t - first.t) / 1000;
      const bps = dt > 0 ? (blocks - first.blocks) / dt : 0;
      const tps = dt > 0 ? (transactions - first.txs) / dt : 0;
      emit({
        type: 'progress',
        indexedHead,
        targetHead: target,
        nodeHead,
        blocks,
        transactions,
        blocksPerSecond: bps,
        transactionsPerSecond: tps,
        etaSeconds: bps > 0 ? Math.max(0, target - indexedHead) / bps : null,
        headLag: Math.max(0, nodeHead - indexedHead),
        elapsedMs: t - started,
      });
    };

    /** Roll back until the stored head is on the node's chain. */
    const walkBack = async (detectedAt: number): Promise<void> => {
      let depth = 0;
      for (;;) {
        const head = await sink.getIndexedHead();
        if (head === null) {
          stored = null;
          break;
        }
        const nodeHash = await source.blockHash(head.number);
        if (nodeHash === head.hash) {
          stored = head;
          break;
        }
        if (depth >= maxReorgDepth) throw new ReorgTooDeepError(maxReorgDepth);
        await sink.rollbackAbove(head.number - 1);
        depth++;
      }
      reorgs++;
      const ancestor = stored === null ? null : stored.number;
      log(`reorg at block ${detectedAt}: rolled back ${depth} block(s) to ${ancestor === null ? 'an empty store' : `common ancestor ${ancestor}`}`);
      emit({ type: 'reorg', detectedAt, commonAncestor: ancestor, depth });
    };

    /** Is the stored head still on the node's chain? */
    const headIsCanonical = async (): Promise<boolean> => {
      if (stored === null) return true;
      return (await source.blockHash(stored.number)) === stored.hash;
    };

    if (!(await headIsCanonical())) await walkBack(stored?.number ?? 0);

    /** Index [start, end]; returns early (false) when a reorg was found and handled. */
    const indexRange = async (start: number, end: number): Promise<boolean> => {
      const inflight = new Map<number, Promise<BlockBundle | null>>();
      let nextFetch = start;
      const fill = (): void => {
        while (nextFetch <= end && inflight.size < concurrency) {
          const n = nextFetch++;
          const p = fetchBundle(n, caps);
          p.catch(() => {}); // awaited below, or abandoned on a reorg
          inflight.set(n, p);
        }
      };
      let batch: BlockBundle[] = [];
      let batchTxs = 0;
      // the write in flight: fetching goes on meanwhile; the next write waits for it
      let writing: Promise<void> = Promise.resolve();
      const write = async (bundles: readonly BlockBundle[], txs: number): Promise<void> => {
        await sink.writeBlocks(bundles);
        const last = bundles[bundles.length - 1];
        if (last !== undefined) stored = { number: last.block.number, hash: last.block.hash };
        blocks += bundles.length;
        unsettled += bundles.length;
        transactions += txs;
        if (stored !== null) report(stored.number, end);
      };
      /** Start writing the batch once the previous write is done (a failed write throws here). */
      const flush = async (): Promise<void> => {
        await writing;
        if (batch.length === 0) return;
        writing = write(batch, batchTxs);
        writing.catch(() => {}); // awaited by the next flush or drain
        batch = [];
        batchTxs = 0;
      };
      /** Write the batch and wait until everything is written. */
      const drain = async (): Promise<void> => {
        await flush();
        await writing;
      };
      let tip: { number: number; hash: Hash } | null = stored;
      for (let n = start; n <= end; n++) {
        if (signal?.aborted) break;
        fill();
        const pending = inflight.get(n);
        if (pending === undefined) break;
        const bundle = await pending;
        inflight.delete(n);
        if (bundle === null || (tip !== null && tip.number === n - 1 && bundle.block.parentHash !== tip.hash)) {
          await drain();
          await walkBack(n);
          return false;
        }
        batch.push(bundle);
        batchTxs += bundle.transactions.length;
        tip = { number: n, hash: bundle.block.hash };
        if (batch.length >= batchSize) await flush();
      }
      await drain();
      return true;
    };

    for (;;) {
      if (signal?.aborted) break;
      nodeHead = await source.headNumber();
      const start = stored === null ? from : stored.number + 1;
      const target = to === undefined ? nodeHead : Math.min(to, nodeHead);
      if (start > target) {
        if (!(await headIsCanonical())) {
          await walkBack(stored?.number ?? 0);
          continue;
        }
        if (sink.settle !== undefined && (bulk || unsettled >= settleAfterBlocks)) {
          const t0 = now();
          await sink.settle();
          log(`settled the store after ${unsettled} blocks written${bulk ? ' in bulk' : ''} (${((now() - t0) / 1000).toFixed(1)} s)`);
        }
        unsettled = 0;
        bulk = false;
        emit({ type: 'caught-up', indexedHead: stored?.number ?? null, nodeHead });
        if (!follow || (to !== undefined && start > to)) break;
        await sleep(pollIntervalMs, signal);
        continue;
      }
      if (!bulk && sink.beginBulk !== undefined && target - start + 1 >= bulkAfterBlocks) {
        await sink.beginBulk();
        bulk = true;
        log(`bulk catch-up: ${target - start + 1} blocks behind, read-only upkeep deferred until caught up`);
      }
      await indexRange(start, target);
    }
    return { blocks, transactions, reorgs, indexedHead: stored?.number ?? null };
  }

  return { run };
}
