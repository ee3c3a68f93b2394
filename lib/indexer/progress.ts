/** Progress accounting: blocks and transactions written, rates over the last ~10 s, ETA and lag. */
import type { ProgressEvent } from './events.ts';

export interface Progress {
  blocks: number;
  transactions: number;
  /** blocks written since the indexer was last caught up */
  unsettled: number;
  written(blocks: number, transactions: number): void;
  event(indexedHead: number, targetHead: number, nodeHead: number): ProgressEvent;
}

export function createProgress(now: () => number): Progress {
  const started = now();
  const window: { t: number; blocks: number; txs: number }[] = [{ t: started, blocks: 0, txs: 0 }];
  const p: Progress = {
    blocks: 0,
    transactions: 0,
    unsettled: 0,
    written(blocks, transactions) {
      p.blocks += blocks;
      p.unsettled += blocks;
      p.transactions += transactions;
    },
    event(indexedHead, targetHead, nodeHead) {
      const t = now();
      window.push({ t, blocks: p.blocks, txs: p.transactions });
      while (window.length > 2 && (window[0]?.t ?? t) < t - 10_000) window.shift();
      const first = window[0] ?? { t, blocks: p.blocks, txs: p.transactions };
      const dt = (t - first.t) / 1000;
      const bps = dt > 0 ? (p.blocks - first.blocks) / dt : 0;
      const tps = dt > 0 ? (p.transactions - first.txs) / dt : 0;
      return {
        type: 'progress',
        indexedHead,
        targetHead,
        nodeHead,
        blocks: p.blocks,
        transactions: p.transactions,
        blocksPerSecond: bps,
        transactionsPerSecond: tps,
        etaSeconds: bps > 0 ? Math.max(0, targetHead - indexedHead) / bps : null,
        headLag: Math.max(0, nodeHead - indexedHead),
        elapsedMs: t - started,
      };
    },
  };
  return p;
}
