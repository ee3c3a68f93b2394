/** A `scoutkit <command>` child process whose JSON log lines (stdout and stderr) are collected. */
import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { scoutkitBin } from '../support/scoutkitBin.ts';

export type LogLine = Record<string, unknown> & { readonly time?: string; readonly level?: string; readonly msg?: string };

export interface Child {
  readonly process: ChildProcessByStdio<null, Readable, Readable>;
  /** JSON lines parsed so far (a line that is not JSON is kept as `{ unparsed: line }`) */
  readonly lines: LogLine[];
  /** raw text of both streams */
  output(): string;
  /** resolves with the first line (already seen or to come) that `match` accepts */
  waitFor(match: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** the exit code (or the signal's name) */
  readonly exited: Promise<number | string>;
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

export function startScoutkit(args: readonly string[]): Child {
  const child = spawn(process.execPath, [...scoutkitBin(), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: LogLine[] = [];
  let raw = '';
  const waiters: { match: (line: LogLine) => boolean; resolve: (line: LogLine) => void }[] = [];
  const take = (line: string): void => {
    raw += `${line}\n`;
    let parsed: LogLine;
    try {
      parsed = JSON.parse(line) as LogLine;
    } catch {
      parsed = { unparsed: line };
    }
    lines.push(parsed);
    for (const w of [...waiters]) {
      if (w.match(parsed)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(parsed);
      }
    }
  };
  createInterface({ input: child.stdout }).on('line', take);
  createInterface({ input: child.stderr }).on('line', take);
  const exited = once(child, 'exit').then(([code, signal]) => (code as number | null) ?? String(signal));
  return {
    process: child,
    lines,
    output: () => raw,
    exited,
    waitFor(match, timeoutMs = 30_000) {
      const seen = lines.find(match);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no such line within ${timeoutMs} ms; output:\n${raw}`)), timeoutMs);
        waiters.push({
          match,
          resolve: (line) => {
            clearTimeout(timer);
            resolve(line);
          },
        });
        void exited.then((code) => {
          clearTimeout(timer);
          reject(new Error(`exited (${code}) before such a line; output:\n${raw}`));
        });
      });
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Ask `probe` every 200 ms until it returns true (or fail after `timeoutMs`). */
export async function eventually(what: string, probe: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (Date.now() > until) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
