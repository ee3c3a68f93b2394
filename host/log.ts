/**
 * The commands' log lines: `--log-format text` (the default: `<ISO time> <level> <msg> k=v …`) or
 * `json` (one object per line: `time` (ISO), `level`, `msg`, then the fields). A formatter of a
 * few lines rather than a logging library: both commands write a handful of lines a second at
 * most (request lines aside), synchronously, to stdout/stderr, in exactly two shapes; pino would
 * bring an asynchronous writer to flush on exit and a second package (pino-pretty) for the text.
 *
 * `createThrottle` keeps repeated lines of one kind at a rate a person can read: the first at
 * once, then at most one per interval, saying how many it stood for.
 */

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
