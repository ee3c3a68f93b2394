/**
 * The commands' log lines: `--log-format text` (the default: `<ISO time> <level> <msg> k=v …`) or
 * `json` (one object per line: `time` (ISO), `level`, `msg`, then the fields), both formatted
 * here: the two shapes are a few lines, and pino's own would change the JSON's field order and need
 * pino-pretty for the text. `serve` writes them, request lines included, through pino's
 * asynchronous destination (`processOutput`: sonic-boom on stdout and stderr) rather than one
 * synchronous write per line: lines are held up to 20 ms (or 64 KB) and go out together, written
 * by libuv's thread pool. `flushLogs()` waits until everything held is written: `main`
 * (host/cli.ts) calls it when a command returns (serve: after `stopped`) and before printing the
 * error that ends one, and createServer's `close()` too; on any other exit (`process.exit` on a
 * second signal, an uncaught error) what is left is written synchronously. `index` writes its
 * lines as they come (a handful a second).
 *
 * `createThrottle` keeps repeated lines of one kind at a rate a person can read: the first at
 * once, then at most one per interval, saying how many it stood for.
 */
import { writeSync } from 'node:fs';
import pino from 'pino';

export type LogFormat = 'text' | 'json';
export type LogLevel = 'info' | 'warn' | 'error';
export type LogFields = Readonly<Record<string, unknown>>;

export interface LogOutput {
  write(text: string): unknown;
}

export interface Logger {
  readonly format: LogFormat;
  log(level: LogLevel, msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

export const LOG_FORMATS: readonly LogFormat[] = ['text', 'json'];

/** `--log-format`: text (default) or json. */
export function parseLogFormat(value: string | undefined): LogFormat {
  if (value === undefined) return 'text';
  if (value === 'text' || value === 'json') return value;
  throw new Error(`--log-format: text or json, got "${value}"`);
}

/** One line: JSON, or `time level msg key=value …` (values with spaces or quotes as JSON). */
export function formatLine(format: LogFormat, time: Date, level: LogLevel, msg: string, fields: LogFields = {}): string {
  const iso = time.toISOString();
  if (format === 'json') return JSON.stringify({ time: iso, level, msg, ...withoutReserved(fields) });
  const pairs = Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${textValue(v)}`);
  return [iso, level.padEnd(5), msg, ...pairs].join(' ');
}

/** A logger writing info to `out` and warnings and errors to `err` (default: `out` too). */
export function createLogger(format: LogFormat, out: LogOutput, err: LogOutput = out, now: () => Date = () => new Date()): Logger {
  const log = (level: LogLevel, msg: string, fields?: LogFields): void => {
    (level === 'info' ? out : err).write(`${formatLine(format, now(), level, msg, fields)}\n`);
  };
  return {
    format,
    log,
    info: (msg, fields) => log('info', msg, fields),
    warn: (msg, fields) => log('warn', msg, fields),
    error: (msg, fields) => log('error', msg, fields),
  };
}

/** A log output whose lines are buffered; `flush` resolves once every line written so far is out. */
export interface BufferedOutput extends LogOutput {
  write(text: string): unknown;
  flush(): Promise<void>;
}

const processOutputs = new Map<number, BufferedOutput>();

/**
 * The process's stdout (1) or stderr (2) through pino's asynchronous destination. One per
 * descriptor, shared by everything that logs through it (the request lines and the others stay
 * in order), written out synchronously on exit.
 */
export function processOutput(fd: 1 | 2): BufferedOutput {
  const known = processOutputs.get(fd);
  if (known !== undefined) return known;
  const output = bufferedOutput(fd);
  processOutputs.set(fd, output);
  return output;
}

/** Resolves once the lines written so far to the process outputs are out. */
export async function flushLogs(): Promise<void> {
  await Promise.all([...processOutputs.values()].map((o) => o.flush()));
}

/** lines are held this long at most, or until they are this many characters, then handed over together */
const HOLD_MS = 20;
const HOLD_CHARS = 65_536;

/**
 * Lines are held (at most HOLD_MS, or HOLD_CHARS) and handed to the destination together: one
 * destination write per batch, not per request. A destination write costs more than a
 * synchronous write(2) to a file (a string to bytes, a trip through libuv's thread pool); shared
 * by a batch, it costs less. Written out synchronously on exit, before or after pino's exit hook.
 */
function bufferedOutput(fd: 1 | 2): BufferedOutput {
  const destination = pino.destination({ dest: fd, sync: false });
  // pino ends it once the event loop is empty ('beforeExit'): a line after that is written at once
  const ended = (): boolean => 'destroyed' in destination && destination.destroyed === true;
  let held = '';
  let timer: NodeJS.Timeout | undefined;
  const handOver = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (held === '') return;
    const text = held;
    held = '';
    if (!ended()) destination.write(text);
    else writeAtOnce(fd, text);
  };
  // on exit, no event loop: the destination's lines, then those held, synchronously (a write under
  // way in the thread pool, at most one batch, is the kernel's to finish)
  process.on('exit', () => {
    const text = held;
    held = '';
    try {
      if (!ended()) destination.flushSync();
    } catch {
      // a closed pipe: nowhere to write
    }
    writeAtOnce(fd, text);
  });
  return {
    write: (text) => {
      held += text;
      if (held.length >= HOLD_CHARS) handOver();
      else timer ??= setTimeout(handOver, HOLD_MS).unref();
    },
    // an empty write goes out after those before it, then 'drain' says nothing is left; after a
    // broken pipe pino has made write a no-op (it returns no boolean), and nothing can go out
    flush: () =>
      new Promise<void>((resolve) => {
        handOver();
        if (ended()) return resolve();
        const done = (): void => {
          destination.off('drain', done).off('error', done).off('close', done);
          resolve();
        };
        destination.once('drain', done).once('error', done).once('close', done);
        if (typeof (destination.write('') as unknown) !== 'boolean') done();
      }),
  };
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Writes `text` whole, synchronously: a full pipe is waited for (5 s at most); a closed one drops it. */
function writeAtOnce(fd: number, text: string): void {
  let rest = Buffer.from(text);
  let waits = 0;
  while (rest.length > 0) {
    try {
      rest = rest.subarray(writeSync(fd, rest));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN' || ++waits > 500) return;
      Atomics.wait(pause, 0, 0, 10);
    }
  }
}

/**
 * Says whether a line of `kind` may be written now, and how many of that kind it stands for
 * (itself and those held back since the last one written).
 */
export type Throttle = (kind: string) => { readonly write: boolean; readonly count: number };

export function createThrottle(intervalMs = 10_000, now: () => number = Date.now): Throttle {
  const last = new Map<string, { at: number; held: number }>();
  return (kind) => {
    const t = now();
    const seen = last.get(kind);
    if (seen !== undefined && t - seen.at < intervalMs) {
      seen.held++;
      return { write: false, count: 0 };
    }
    last.set(kind, { at: t, held: 0 });
    return { write: true, count: (seen?.held ?? 0) + 1 };
  };
}

function withoutReserved(fields: LogFields): LogFields {
  if (!('time' in fields || 'level' in fields || 'msg' in fields)) return fields;
  const { time: _t, level: _l, msg: _m, ...rest } = fields;
  return rest;
}

function textValue(v: unknown): string {
  if (typeof v === 'string') return /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return String(v);
  return JSON.stringify(v) ?? String(v);
}
