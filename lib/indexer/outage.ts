/**
 * Outages of the node or the store: every failed attempt counted and emitted (`waiting`), said
 * at a rate a person can read — the first line at once, then one summary line a minute, then
 * "resumed after Ns" (`resumed`) at the first answer. Past the budget (without `follow`: the
 * retry budget; with it, by default, none) the run fails with an OutageError that says so.
 */
import type { IndexerEvent } from './events.ts';

export type OutageTarget = 'node' | 'store';

/** the run waited for the node or the store longer than its retry budget */
export class OutageError extends Error {
  override readonly name: string = 'OutageError';
  constructor(
    readonly on: OutageTarget,
    readonly waitedMs: number,
    readonly budgetMs: number,
    last: string,
  ) {
    super(`gave up waiting for the ${on} after ${seconds(waitedMs)} (retry budget ${seconds(budgetMs)}): ${last}`);
  }
}

export interface Outage {
  /** one failed attempt (`message`: what failed); throws OutageError once the outage outlasts the budget */
  waiting(message: string): void;
  /** an answer came: the outage (if any) is over */
  resumed(): void;
}

export interface OutageOptions {
  /** how long an outage is waited out before the run fails (Infinity: as long as it lasts) */
  readonly budgetMs: number;
  /** the longest wait between attempts, said in the first line */
  readonly maxDelayMs: number;
  /** a summary line at most this often (default 60 s) */
  readonly summaryEveryMs?: number;
}

const seconds = (ms: number): string => `${ms < 10_000 ? (ms / 1000).toFixed(1) : Math.round(ms / 1000)}s`;

export function createOutage(
  on: OutageTarget,
  options: OutageOptions,
  deps: { readonly log: (line: string) => void; readonly emit: (event: IndexerEvent) => void; readonly now: () => number },
): Outage {
  const summaryEveryMs = options.summaryEveryMs ?? 60_000;
  let started: number | null = null;
  let attempt = 0;
  let lastSaid = 0;
  let attemptsSaid = 0;
  return {
    waiting(message) {
      const t = deps.now();
      if (started === null) {
        started = t;
        attempt = 0;
        attemptsSaid = 0;
        lastSaid = t;
        const how = Number.isFinite(options.budgetMs) ? `for at most ${seconds(options.budgetMs)}` : 'for as long as it takes';
        deps.log(`the ${on} is not answering: ${message} — waiting ${how}, asking again with backoff up to ${seconds(options.maxDelayMs)}`);
      }
      attempt++;
      const sinceMs = t - started;
      deps.emit({ type: 'waiting', on, attempt, sinceMs, message });
      if (t - lastSaid >= summaryEveryMs) {
        deps.log(`still waiting for the ${on} after ${seconds(sinceMs)} (${attempt - attemptsSaid} failed attempt(s) in the last ${seconds(t - lastSaid)}): ${message}`);
        lastSaid = t;
        attemptsSaid = attempt;
      }
      // (the outage stays on: every step still waiting gives up too)
      if (sinceMs > options.budgetMs) {
        throw new OutageError(on, sinceMs, options.budgetMs, message);
      }
    },
    resumed() {
      if (started === null) return;
      const afterMs = deps.now() - started;
      started = null;
      deps.log(`the ${on} answers again: resumed after ${seconds(afterMs)} (${attempt} failed attempt(s))`);
      deps.emit({ type: 'resumed', on, afterMs });
    },
  };
}
