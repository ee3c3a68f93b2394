/**
 * What `scoutkit index` writes, in either `--log-format`:
 * - text (default): the progress renderer (a bar on a TTY, else a line at most every 5 s), each
 *   line stamped with the time; the node's retry lines and the indexer's hold lines on stderr;
 * - json: one object per line (`time`, `level`, `msg`, fields): progress at most every 5 s (and
 *   at the target), start, reorgs, warnings, outages (one line per 10 s for each of node and
 *   store, with a count), lease changes; info on stdout, warnings on stderr.
 * Retries and holds are already summed up at one line per 10 s where they happen
 * (adapters/rpc/report.ts, lib/indexer/hold.ts); `held` events are not rendered again.
 */
import type { IndexerEvent } from '../lib/indexer/index.ts';
import { createLogger, createThrottle } from './log.ts';
import type { LogFields, LogFormat, LogOutput } from './log.ts';
import { createProgressRenderer } from './progress.ts';
import type { ProgressOutput } from './progress.ts';

export interface IndexOutput {
  /** the indexer's onEvent */
  event(event: IndexerEvent): void;
  /** a plain line of the indexer (holds, resets, warnings) */
  indexerLine(line: string): void;
  /** a plain line of the node reader (retries, warnings) */
  rpcLine(line: string): void;
  /** a fact: `text` in the text format, `msg` and `fields` in JSON */
  say(text: string, msg: string, fields?: LogFields): void;
  /** end the progress bar's line */
  finish(): void;
}

export function createIndexOutput(
  format: LogFormat,
  stdout: ProgressOutput,
  stderr: LogOutput,
  options: { readonly now?: () => number; readonly progressIntervalMs?: number } = {},
): IndexOutput {
  const now = options.now ?? Date.now;
  const stamp = (): string => new Date(now()).toISOString();
  if (format === 'text') {
    const render = createProgressRenderer(stdout, {
      now,
      stamp,
      ...(options.progressIntervalMs !== undefined ? { intervalMs: options.progressIntervalMs } : {}),
    });
    return {
      event: render,
      indexerLine: (line) => void stdout.write(`${stamp()} ${line}\n`),
      rpcLine: (line) => void stderr.write(`${stamp()} ${line}\n`),
      say: (text) => void stdout.write(`${stamp()} ${text}\n`),
      finish: () => render.finish(),
    };
  }
  const logger = createLogger('json', stdout, stderr, () => new Date(now()));
  const intervalMs = options.progressIntervalMs ?? 5000;
  let lastProgress = -Infinity;
  const throttle = createThrottle(10_000, now);
  const warning = (line: string): boolean => /^warning\b|^reorg\b|held back|retrying|gave up/i.test(line);
  return {
    event(event) {
      switch (event.type) {
        case 'start': {
          const { type: _t, capabilities, ...rest } = event;
          logger.info('start', { ...rest, capabilities });
          return;
        }
        case 'progress': {
          const t = now();
          if (t - lastProgress < intervalMs && event.indexedHead < event.targetHead) return;
          lastProgress = t;
          const { type: _t, ...fields } = event;
          logger.info('progress', fields);
          return;
        }
        case 'reorg': {
          const { type: _t, ...fields } = event;
          logger.warn('reorg', fields);
          return;
        }
        case 'warning':
          logger.warn(event.message);
          return;
        case 'waiting': {
          const { write, count } = throttle(`waiting ${event.on}`);
          const { type: _t, ...fields } = event;
          if (write) logger.warn(`waiting for the ${event.on}`, { ...fields, waits: count });
          return;
        }
        case 'resumed': {
          const { type: _t, ...fields } = event;
          logger.info(`${event.on} back: resumed`, fields);
          return;
        }
        case 'lease': {
          const { type: _t, ...fields } = event;
          logger.log(event.state === 'lost' ? 'warn' : 'info', `lease ${event.state}`, fields);
          return;
        }
        default:
          return; // caught-up and reset: the progress and the indexer's lines say them; held: the hold's line
      }
    },
    indexerLine: (line) => logger.log(warning(line) ? 'warn' : 'info', line, { from: 'indexer' }),
    rpcLine: (line) => logger.log(warning(line) ? 'warn' : 'info', line, { from: 'rpc' }),
    say: (_text, msg, fields) => logger.info(msg, fields),
    finish: () => {},
  };
}
