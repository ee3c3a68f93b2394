/**
 * The fetch step: a block and everything it needs (receipts, traces, the reads of its facts),
 * built into a BlockBundle; and the window of blocks fetched ahead with bounded concurrency.
 *
 * A block the node could not give now is held back and asked again (hold.ts): a bundle is built
 * from complete answers only, never from a failed read. A block the node has no block at (null)
 * is asked again a few times — a backend a moment behind — and then reported as null; the order
 * step decides, with proof, whether the chain got shorter.
 */
import type { BlockBundle } from '../domain/records.ts';
import { SourceUnavailableError } from '../chain-source.ts';
import type { ChainCapabilities, ChainSource } from '../chain-source.ts';
import { buildBundle, planBlock } from '../ingest/block.ts';
import type { BlockPayload } from '../ingest/block.ts';
import type { BundleOptions } from '../ingest/records.ts';
import { gatherFacts } from './facts.ts';
import { readProxySlotDiffs } from './proxySlots.ts';
import type { FactCache } from './facts.ts';
import type { Hold } from './hold.ts';

/** how often a null block is asked again before it is reported as null */
const NULL_BLOCK_ATTEMPTS = 3;

/** fetch block n's bundle; once `cancelled` says so, a hold ends (the caller has given the block up) */
export type FetchBundle = (n: number, cancelled: () => boolean) => Promise<BlockBundle | null>;

async function fetchOnce(source: ChainSource, n: number, caps: ChainCapabilities, cache: FactCache, options: BundleOptions): Promise<BlockBundle | null> {
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
  if (caps.prestate) return buildBundle(payload, plan, facts, options);
  const storageDiffs = await readProxySlotDiffs(source, payload, plan, facts.contracts);
  return buildBundle(payload, plan, storageDiffs.length === 0 ? facts : { ...facts, storageDiffs }, options);
}

export function createFetchStep(source: ChainSource, caps: ChainCapabilities, cache: FactCache, hold: Hold, options: BundleOptions = {}): FetchBundle {
  return async (n, cancelled) => {
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      const bundle = await hold.retry(`block ${n}`, () => fetchOnce(source, n, caps, cache, options), cancelled);
      if (bundle !== null || attempt >= NULL_BLOCK_ATTEMPTS) return bundle;
      await hold.pause(`block ${n}`, new SourceUnavailableError(`the node has no block ${n} (yet)`, 'not-yet'), attempt, started, cancelled);
    }
  };
}

/** Blocks [start, end] fetched ahead, at most `concurrency` at a time, taken in order. */
export interface FetchWindow {
  /** the bundle of block n (which must be the next one not taken yet); undefined past the end */
  take(n: number): Promise<BlockBundle | null> | undefined;
  /** give up the blocks fetched ahead (their holds end) */
  close(): void;
}

export function createFetchWindow(fetch: FetchBundle, start: number, end: number, concurrency: number): FetchWindow {
  const inflight = new Map<number, Promise<BlockBundle | null>>();
  let next = start;
  let closed = false;
  const cancelled = (): boolean => closed;
  const fill = (): void => {
    while (next <= end && inflight.size < concurrency) {
      const n = next++;
      const p = fetch(n, cancelled);
      p.catch(() => {}); // awaited by take, or abandoned when the range ends early
      inflight.set(n, p);
    }
  };
  return {
    take(n) {
      fill();
      const p = inflight.get(n);
      return p?.finally(() => inflight.delete(n));
    },
    close() {
      closed = true;
    },
  };
}
