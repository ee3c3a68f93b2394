/**
 * The user-operation backfill: a store indexed before user operations were derived holds the
 * blocks but not their operations. The blocks that hold a BeforeExecution log of an EntryPoint
 * (the store's own logs: DataSink.blocksWithLogs) are read again from the node — the block, its
 * receipts and, when the node traces, its call frames — and their operations written beside the
 * stored block (DataSink.writeUserOperations). A block the node now has under another hash is
 * left alone (a reorg the indexer's next turn resolves). Idempotent: each block's operations are
 * replaced, never added twice.
 */
import type { ChainCapabilities, ChainSource } from '../chain-source.ts';
import type { Address } from '../domain/records.ts';
import type { DataSink } from '../ports.ts';
import { TOPICS } from '../userops/abi.ts';
import type { EntryPoints } from '../userops/entryPoints.ts';
import { userOperationsOf } from '../userops/extract.ts';

export interface UserOperationBackfillSummary {
  /** blocks holding EntryPoint logs */
  readonly blocks: number;
  /** operations written */
  readonly operations: number;
  /** blocks skipped: the node has another block at that height, or the store no longer has it */
  readonly skipped: number;
}

export interface UserOperationBackfillDeps {
  readonly source: ChainSource;
  readonly sink: DataSink;
  readonly caps: ChainCapabilities;
  readonly entryPoints: EntryPoints;
  /** blocks read at the same time (default 8) */
  readonly concurrency?: number;
  readonly log?: (line: string) => void;
  readonly aborted?: () => boolean;
}

/** Fill the user operations of the stored blocks that hold EntryPoint logs; a sink without the two members does nothing. */
export async function backfillUserOperations(deps: UserOperationBackfillDeps): Promise<UserOperationBackfillSummary> {
  const { source, sink, caps, entryPoints } = deps;
  const find = sink.blocksWithLogs?.bind(sink);
  const write = sink.writeUserOperations?.bind(sink);
  if (find === undefined || write === undefined) return { blocks: 0, operations: 0, skipped: 0 };
  const blocks = await find([...entryPoints.keys()] as Address[], TOPICS.beforeExecution);
  deps.log?.(`user operations: ${blocks.length} stored block(s) hold EntryPoint bundles; reading them again from the node`);
  let next = 0;
  let operations = 0;
  let skipped = 0;
  const worker = async (): Promise<void> => {
    for (;;) {
      if (deps.aborted?.() === true) return;
      const stored = blocks[next++];
      if (stored === undefined) return;
      const block = await source.getBlock(stored.number);
      if (block === null || block.hash !== stored.hash) {
        skipped++;
        continue;
      }
      const [receipts, traces] = await Promise.all([source.getReceipts(block), caps.traces ? source.traceCalls(block) : Promise.resolve(null)]);
      const ops = userOperationsOf({ block, receipts, traces }, entryPoints);
      if (await write(stored.hash, ops)) operations += ops.length;
      else skipped++;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, deps.concurrency ?? 8) }, worker));
  deps.log?.(`user operations: ${operations} written for ${blocks.length - skipped} block(s)${skipped > 0 ? `, ${skipped} skipped (no longer the node's or the store's)` : ''}`);
  return { blocks: blocks.length, operations, skipped };
}
