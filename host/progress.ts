/**
 * Indexer events → output: a one-line progress bar redrawn in place on a TTY, plain log lines
 * (at most one per interval) otherwise. Start-up facts, reorgs and warnings are always lines.
 */
import type { IndexerEvent, ProgressEvent } from '../lib/indexer/index.ts';
import { createThrottle } from './log.ts';

export interface ProgressOutput {
  write(text: string): void;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface ProgressRenderer {
  (event: IndexerEvent): void;
  /** end the bar's line (call once when done) */
  finish(): void;
}

export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

const rate = (x: number): string => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

export function progressLine(e: ProgressEvent): string {
  return `block ${e.indexedHead}/${e.targetHead} · ${rate(e.blocksPerSecond)} blocks/s · ${rate(e.transactionsPerSecond)} tx/s · ETA ${formatDuration(e.etaSeconds)} · head lag ${e.headLag}`;
}

export function progressBar(e: ProgressEvent, width: number, startBlock: number): string {
  const span = Math.max(1, e.targetHead - startBlock + 1);
  const done = Math.min(1, Math.max(0, (e.indexedHead - startBlock + 1) / span));
  const text = ` ${(done * 100).toFixed(1).padStart(5)}% ${progressLine(e)}`;
  const barWidth = Math.max(10, Math.min(40, width - text.length - 3));
  const filled = Math.round(done * barWidth);
  return `[${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}]${text}`;
}

export function createProgressRenderer(
  out: ProgressOutput,
  options: { intervalMs?: number; now?: () => number; /** prefix of each line (e.g. a timestamp), not of the bar */ stamp?: () => string } = {},
): ProgressRenderer {
  const tty = out.isTTY === true;
  const intervalMs = options.intervalMs ?? (tty ? 100 : 5000);
  const now = options.now ?? Date.now;
  let last = 0;
  let barShown = false;
  let startBlock = 0;
  // outage lines: at most one per 10 s for each of node and store, with how many they stand for
  const throttle = createThrottle(10_000, now);
  const line = (text: string): void => {
    if (barShown) out.write('\r\x1b[2K');
    barShown = false;
    out.write(`${options.stamp === undefined ? '' : `${options.stamp()} `}${text}\n`);
  };
  const render = ((event: IndexerEvent) => {
    switch (event.type) {
      case 'start':
        startBlock = event.from;
        // what the node lacks is said once, by the indexer's own log lines
        line(`indexing chain ${event.chainId} from block ${event.from} (node head ${event.nodeHead})`);
        return;
      case 'progress': {
        const t = now();
        if (t - last < intervalMs && event.indexedHead < event.targetHead) return;
        last = t;
        if (tty) {
          out.write(`\r\x1b[2K${progressBar(event, out.columns ?? 100, startBlock)}`);
          barShown = true;
        } else {
          line(progressLine(event));
        }
        return;
      }
      case 'reorg':
        line(`reorg detected at block ${event.detectedAt}: rolled back ${event.depth} block(s) to ${event.commonAncestor ?? 'an empty store'}`);
        return;
      case 'caught-up':
        if (tty && barShown) return; // the bar already says it
        return;
      case 'reset':
        return; // the indexer's log line says it, with what was emptied
      case 'warning':
        line(`warning: ${event.message}`);
        return;
      case 'held':
        return; // the indexer's own log line says it (at a readable rate)
      case 'waiting': {
        const { write, count } = throttle(`waiting ${event.on}`);
        if (write) line(`waiting for the ${event.on} (${Math.round(event.sinceMs / 1000)} s, attempt ${event.attempt}${count > 1 ? `, ${count} waits since last said` : ''}): ${event.message}`);
        return;
      }
      case 'resumed':
        line(`${event.on} back after ${(event.afterMs / 1000).toFixed(1)} s: resumed`);
        return;
      case 'lease':
        line(event.state === 'acquired' ? 'lease acquired: this indexer writes the store' : `lease ${event.state}${event.holder === null ? '' : ` (held by ${event.holder})`}`);
        return;
    }
  }) as ProgressRenderer;
  render.finish = () => {
    if (barShown) out.write('\n');
    barShown = false;
  };
  return render;
}
