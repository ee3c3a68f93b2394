/**
 * `scoutkit index` and `scoutkit serve` as child processes (the build when current, else
 * bin/scoutkit.ts through tsx: scoutkitBin.ts), their output kept with the time each line came,
 * for the outage tests.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { scoutkitBin } from './scoutkitBin.ts';

export interface Line {
  readonly at: number;
  readonly text: string;
}

export interface Child {
  readonly process: ChildProcess;
  /** stdout and stderr lines, in the order they came */
  readonly lines: Line[];
  /** the exit code (null: still running) */
  exitCode(): number | null;
  /** resolves with the first line (from `after` on) that matches */
  waitFor(pattern: RegExp, timeoutMs: number, after?: number): Promise<Line>;
  /** SIGTERM, and the exit code */
  stop(): Promise<number | null>;
}

export function startCli(args: readonly string[]): Child {
  const child = spawn(process.execPath, [...scoutkitBin(), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: Line[] = [];
  let code: number | null = null;
  const exited = once(child, 'exit').then(([c]) => {
    code = c as number | null;
  });
  const watchers = new Set<() => void>();
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (text) => {
      lines.push({ at: Date.now(), text });
      for (const w of watchers) w();
    });
  }
  return {
    process: child,
    lines,
    exitCode: () => code,
    waitFor(pattern, timeoutMs, after = 0) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const hit = lines.find((l) => l.at >= after && pattern.test(l.text));
          if (hit === undefined) return;
          done();
          resolve(hit);
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms; output:\n${lines.map((l) => l.text).join('\n')}`));
        }, timeoutMs);
        const onExit = (): void => {
          done();
          reject(new Error(`exited (${code}) before a line matching ${pattern}; output:\n${lines.map((l) => l.text).join('\n')}`));
        };
        function done(): void {
          clearTimeout(timer);
          watchers.delete(check);
          child.off('exit', onExit);
        }
        watchers.add(check);
        child.once('exit', onExit);
        check();
      });
    },
    async stop() {
      if (code === null && child.exitCode === null) child.kill('SIGTERM');
      await exited;
      return code;
    },
  };
}

/** `scoutkit serve` and the URL it listens at */
export async function startServe(args: readonly string[]): Promise<{ child: Child; url: string }> {
  const child = startCli(['serve', ...args, '--port', '0', '--no-docs', '--no-metrics']);
  const line = await child.waitFor(/"msg":"listening"/, 60_000);
  return { child, url: String((JSON.parse(line.text) as { url: string }).url) };
}

/** Ask `f` every 100 ms until it holds (then the time, Date.now()), or throw after `timeoutMs`. */
export async function until(what: string, f: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (!(await f())) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return Date.now();
}
