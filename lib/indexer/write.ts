/**
 * The write step: bundles gathered into batches of `batchSize`, each written atomically
 * (DataSink.writeBlocks), at most one write in flight — the next batch is fetched meanwhile, and
 * its write waits for the one before (a failed write is thrown by the next flush or the drain).
 */
import type { BlockBundle } from '../domain/records.ts';
import type { DataSink } from '../ports.ts';

export interface BatchWriter {
  /** add a bundle (the next block in order); writes the batch when it is full */
  push(bundle: BlockBundle): Promise<void>;
  /** write what is gathered and wait until every write is done */
  drain(): Promise<void>;
}

export function createBatchWriter(
  sink: DataSink,
  batchSize: number,
  /** told after each batch is written */
  written: (bundles: readonly BlockBundle[], transactions: number) => void,
): BatchWriter {
  let batch: BlockBundle[] = [];
  let batchTxs = 0;
  let writing: Promise<void> = Promise.resolve();

  const write = async (bundles: readonly BlockBundle[], txs: number): Promise<void> => {
    await sink.writeBlocks(bundles);
    written(bundles, txs);
  };
  /** start writing the batch once the previous write is done (a failed write throws here) */
  const flush = async (): Promise<void> => {
    await writing;
    if (batch.length === 0) return;
    writing = write(batch, batchTxs);
    writing.catch(() => {}); // awaited by the next flush or drain
    batch = [];
    batchTxs = 0;
  };

  return {
    async push(bundle) {
      batch.push(bundle);
      batchTxs += bundle.transactions.length;
      if (batch.length >= batchSize) await flush();
    },
    async drain() {
      await flush();
      await writing;
    },
  };
}
