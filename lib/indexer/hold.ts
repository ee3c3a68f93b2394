/**
 * Holding back: a step the node could not answer (a SourceUnavailableError: unavailable, or
 * not there yet) is waited out with capped exponential backoff and asked again — nothing is
 * stored from it meanwhile. Holds are counted and said at a rate a person can read (the first
 * at once, then at most one line every 10 s). Without a budget (follow mode) a hold lasts as
 * long as the outage; with one, a step that stays unanswered that long is thrown. A node that
 * is `unavailable` is an outage (outage.ts): said once a minute there, and over at the first answer.
 */
import { SourceUnavailableError } from '../chain-source.ts';
import type { Outage } from './outage.ts';

export interface HoldOptions {
  /** first wait (default 200 ms), doubled each time */
  readonly baseDelayMs?: number;
  /** longest wait (default 5 s) */
  readonly maxDelayMs?: number;
  /** how long one step may stay unanswered before it is thrown (default Infinity; an `unavailable` node is an outage, with the outage's budget) */
  readonly budgetMs?: number;
}

export interface HoldReport {
  readonly what: string;
  readonly reason: SourceUnavailableError['reason'];
  readonly message: string;
  readonly attempt: number;
  readonly delayMs: number;
}

export interface Hold {
  /** run `step`, waiting out SourceUnavailableErrors; `what` names it in the log; ends (throwing) once `cancelled` */
  retry<T>(what: string, step: () => Promise<T>, cancelled?: () => boolean): Promise<T>;
  /** wait once after `err` (attempt counts from 1); throws err when `since` is older than the budget, or cancelled */
  pause(what: string, err: SourceUnavailableError, attempt: number, since: number, cancelled?: () => boolean): Promise<void>;
  /** holds so far, by reason */
  counts(): Readonly<Record<SourceUnavailableError['reason'], number>>;
}

export function createHold(
  options: HoldOptions,
  deps: {
    readonly log: (line: string) => void;
    readonly onHold: (report: HoldReport) => void;
    readonly sleep: (ms: number) => Promise<void>;
    readonly now: () => number;
    /** the run was stopped: a hold ends at once (throwing the error it waited out) */
    readonly aborted: () => boolean;
    /** the node's outage: told of every `unavailable` hold (it logs them; throws past its budget) and of every answer */
    readonly outage?: Outage;
  },
): Hold {
  const base = options.baseDelayMs ?? 200;
  const max = options.maxDelayMs ?? 5000;
  const budget = options.budgetMs ?? Infinity;
  const counts = { unavailable: 0, 'not-yet': 0 };
  let since = 0;
  let lastLogged = -Infinity;

  const pause = async (what: string, err: SourceUnavailableError, attempt: number, started: number, cancelled?: () => boolean): Promise<void> => {
    if (deps.aborted() || cancelled?.() === true) throw err;
    counts[err.reason]++;
    const outage = err.reason === 'unavailable' ? deps.outage : undefined;
    outage?.waiting(`${what}: ${err.message}`);
    if (outage === undefined) since++;
    // an outage's budget is the outage's (it threw above); a step not there yet has its own
    if (outage === undefined && deps.now() - started > budget) throw err;
    const backoff = Math.min(max, base * 2 ** Math.max(0, attempt - 1));
    const delayMs = backoff / 2 + Math.random() * (backoff / 2);
    deps.onHold({ what, reason: err.reason, message: err.message, attempt, delayMs });
    const t = deps.now();
    if (outage === undefined && t - lastLogged >= 10_000) {
      deps.log(`held back ${what}: ${err.message} (${err.reason}; ${since} hold(s) since last said), asking again in ${Math.round(delayMs)} ms`);
      lastLogged = t;
      since = 0;
    }
    await deps.sleep(delayMs);
  };

  return {
    pause,
    async retry(what, step, cancelled) {
      const started = deps.now();
      for (let attempt = 1; ; attempt++) {
        try {
          const result = await step();
          deps.outage?.resumed();
          return result;
        } catch (e) {
          if (!(e instanceof SourceUnavailableError)) throw e;
          await pause(what, e, attempt, started, cancelled);
        }
      }
    },
    counts: () => ({ ...counts }),
  };
}
