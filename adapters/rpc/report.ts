/**
 * Retries counted by kind and logged at a rate a person can read: the first retry of a quiet
 * spell at once, then at most one line every 10 s summing up what came since, with the node's own
 * message of the last one.
 */
import { failureKind } from './errors.ts';
import type { RetryListener } from './errors.ts';

export interface RetryReporter {
  readonly onRetry: RetryListener;
  counts(): Readonly<Record<string, number>>;
}

export function createRetryReporter(log: (line: string) => void, intervalMs = 10_000, now: () => number = Date.now): RetryReporter {
  const total: Record<string, number> = {};
  let since: Record<string, number> = {};
  let lastLogged = -Infinity;
  return {
    onRetry(what, err, attempt, delayMs) {
      const kind = failureKind(err);
      total[kind] = (total[kind] ?? 0) + 1;
      since[kind] = (since[kind] ?? 0) + 1;
      const t = now();
      if (t - lastLogged < intervalMs) return;
      const summary = Object.entries(since)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ');
      log(`rpc: retrying (${summary} since last said); last: ${err.message} — attempt ${attempt}, next in ${Math.round(delayMs)} ms [${what}]`);
      since = {};
      lastLogged = t;
    },
    counts: () => ({ ...total }),
  };
}
