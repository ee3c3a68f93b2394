/**
 * The request log line, built in one place for every way in (the Koa chain's log layer and the
 * fast path, upgrades and socket joins), and the one line on stderr that tells an unexpected error
 * (rendered as 500), written as every log line of the process is: through pino's asynchronous
 * destination (host/log.ts `processOutput`), held and flushed on shutdown and on exit.
 */
import { processOutput } from '../log.ts';
import type { RequestInfo } from '../request.ts';

export interface RequestLogLine {
  readonly time: string;
  readonly method: string;
  /** without the query string: `apikey` and `key` never reach the log */
  readonly path: string;
  readonly status: number;
  readonly ms: number;
  /** the chain the request addressed, when it was one of ours */
  readonly chain?: string;
  /** the caller's key by its name in the keys file (`unnamed` for a key without one), when it gave a valid one; never the key */
  readonly key?: string;
  /** the client's address (X-Forwarded-For's only with `proxy`) */
  readonly ip: string;
}

/** One request's line, `ms` it took; the chain and the key's name from what the steps learned. */
export function requestLine(request: LoggedRequest, info: RequestInfo | undefined, status: number, ms: number): RequestLogLine {
  const chain = info?.chainId;
  const identity = info?.identity;
  return {
    time: new Date().toISOString(),
    method: request.method,
    path: request.path,
    status,
    ms: Math.round(ms * 100) / 100,
    ...(chain !== undefined ? { chain } : {}),
    ...(identity?.kind === 'key' && info?.rejection === undefined ? { key: identity.name ?? 'unnamed' } : {}),
    ip: request.ip,
  };
}

/** What a request's log line names of the request itself. */
export interface LoggedRequest {
  readonly method: string;
  readonly path: string;
  readonly ip: string;
}

/** Logs one request: every way in (the Koa chain, the fast path, upgrades, socket joins) calls the one the server made. */
export type RequestLog = (request: LoggedRequest, info: RequestInfo | undefined, status: number, ms: number) => void;

/** The request log writing each request's line (`requestLine`) to `write`. */
export function requestLog(write: (line: RequestLogLine) => void): RequestLog {
  return (request, info, status, ms) => write(requestLine(request, info, status, ms));
}

/** An unexpected error as one JSON line on stderr (asynchronous, host/log.ts): `level`, the request's `fields`, then the error's stack. */
export function reportUnexpected(error: unknown, fields: Readonly<Record<string, unknown>>): void {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  processOutput(2).write(`${JSON.stringify({ level: 'error', ...fields, error: message })}\n`);
}
