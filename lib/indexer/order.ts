/**
 * The order step: is a block still on the node's chain, proven rather than guessed. A node
 * behind a load balancer answers from backends a block or two apart, and a faulty answer must
 * not delete stored blocks, so:
 *
 * - a block is canonical as soon as the node gives its hash at its height;
 * - it is replaced only when every one of a few reads spread over a short window says so: another
 *   hash at its height (that block checked by hash, where the source can), or no block there with
 *   a head below it (the chain got shorter) — a head that moved back for one read is a backend
 *   behind, and waited out;
 * - anything in between is unknown: wait and ask again, roll nothing back.
 *
 * A new block whose parent hash is not the tip's starts the same proof of the tip; its parent
 * must be a block the node knows at the height below. The walk back then rolls back one proven
 * block at a time until the stored head is canonical.
 */
import type { BlockBundle, Hash } from '../domain/records.ts';
import { SourceUnavailableError } from '../chain-source.ts';
import type { ChainSource } from '../chain-source.ts';
import type { DataSink } from '../ports.ts';
import { ReorgTooDeepError } from './identity.ts';

export interface BlockRef {
  readonly number: number;
  readonly hash: Hash;
}

export type Verdict = 'canonical' | 'replaced' | 'unknown';

export interface ProofOptions {
  /** reads that must all say "replaced" (default 3) */
  readonly reads?: number;
  /** time between them (default 400 ms) */
  readonly spacingMs?: number;
}

export interface OrderStep {
  /** where the block stands on the node's chain */
  verify(block: BlockRef): Promise<Verdict>;
  /** a new block does not continue the tip: 'reorg' when the tip is proven replaced, else 'refetch' */
  checkParent(bundle: BlockBundle, tip: BlockRef): Promise<'reorg' | 'refetch'>;
  /** roll the store back to its newest canonical block; returns it (null: an empty store) and the depth */
  walkBack(): Promise<{ readonly head: BlockRef | null; readonly depth: number }>;
}

export function createOrderStep(
  source: ChainSource,
  sink: DataSink,
  options: ProofOptions & { readonly maxReorgDepth: number; readonly sleep: (ms: number) => Promise<void> },
): OrderStep {
  const reads = Math.max(1, options.reads ?? 3);
  const spacingMs = options.spacingMs ?? 400;

  /** one read: true when it says the block is replaced, false when canonical, null when it cannot tell */
  const readOnce = async (block: BlockRef): Promise<boolean | null> => {
    const hash = await source.blockHash(block.number);
    if (hash === block.hash) return false;
    if (hash === null) return (await source.headNumber()) < block.number ? true : null;
    if (source.headerByHash === undefined) return true;
    const other = await source.headerByHash(hash);
    return other !== null && other.number === block.number ? true : null;
  };

  const verify = async (block: BlockRef): Promise<Verdict> => {
    for (let i = 0; i < reads; i++) {
      if (i > 0) await options.sleep(spacingMs);
      const replaced = await readOnce(block);
      if (replaced === false) return 'canonical';
      if (replaced === null) return 'unknown';
    }
    return 'replaced';
  };

  return {
    verify,

    async checkParent(bundle, tip) {
      if (source.headerByHash !== undefined) {
        const parent = await source.headerByHash(bundle.block.parentHash);
        if (parent === null || parent.number !== tip.number) return 'refetch'; // an answer from nowhere: ask again
      }
      return (await verify(tip)) === 'replaced' ? 'reorg' : 'refetch';
    },

    async walkBack() {
      let depth = 0;
      for (;;) {
        const head = await sink.getIndexedHead();
        if (head === null) return { head: null, depth };
        const verdict = await verify(head);
        if (verdict === 'canonical') return { head, depth };
        if (verdict === 'unknown') {
          throw new SourceUnavailableError(`cannot prove yet whether block ${head.number} (${head.hash}) is still on the node's chain`, 'not-yet');
        }
        if (depth >= options.maxReorgDepth) throw new ReorgTooDeepError(options.maxReorgDepth);
        await sink.rollbackAbove(head.number - 1);
        depth++;
      }
    },
  };
}
