/**
 * The one place from a failure to an answer, for every way in (the Koa middleware, the fast path,
 * upgrades, socket joins): a refusal of ours (`ApiException`) is its API error, anything else is
 * reported and becomes `Internal`; lib's error table (`errorResponse`) gives the status and body;
 * a limit header the steps did not get to set says -1 (so a 401 or 503 still names them).
 *
 * And the writing of an answer where no Koa writes it: the fast path's (`ResponseHeaders`,
 * `varyWith`, `writeAnswer`: the status, headers — names, values, order — and bytes Koa's
 * `respond` would write) and an upgrade's refusal on its socket (`writeRefusal`). The Koa
 * middleware renders through `render` too, and Koa writes.
 */
import { STATUS_CODES } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorResponse, toJson } from '../../lib/index.ts';
import type { ApiError, JsonValue } from '../../lib/index.ts';
import type { Encoded } from '../compress.ts';
import { LIMIT_HEADERS } from '../limits.ts';
import { ApiException } from '../request.ts';
import type { HeaderSink } from '../request.ts';

/** The response headers a failure is rendered into, by lower-cased name. */
export interface FailureHeaders {
  has(lower: string): boolean;
  set(name: string, value: string): unknown;
}

export interface RenderedFailure {
  readonly status: number;
  readonly body: JsonValue;
}

/** A failure's API error: ours as it is; anything else is told to `report` and becomes `Internal` (500). */
export function failureOf(e: unknown, report: (error: unknown) => void): ApiError {
  if (e instanceof ApiException) return e.error;
  report(e);
  return { kind: 'Internal' };
}

/** The answer to `error`: status and body from lib's table; the limit headers not set say -1 (`headers`: none when omitted). */
export function render(error: ApiError, headers?: FailureHeaders): RenderedFailure {
  if (headers !== undefined) for (const header of LIMIT_HEADERS) if (!headers.has(header)) headers.set(header, '-1');
  const { status, body } = errorResponse(error);
  return { status, body: body as JsonValue };
}

/** `render` into a plain record of lower-cased names (an upgrade's refusal). */
export function recordHeaders(record: Record<string, string>): FailureHeaders {
  return {
    has: (lower) => record[lower] !== undefined,
    set: (name, value) => (record[name.toLowerCase()] = value),
  };
}

/** The response's headers as node keeps them: by lower-cased name, in the order first set, each with the name as last given. */
export class ResponseHeaders implements HeaderSink, FailureHeaders {
  readonly map = new Map<string, readonly [string, string]>();
  set(name: string, value: string): void {
    this.map.set(name.toLowerCase(), [name, value]);
  }
  has(lower: string): boolean {
    return this.map.has(lower);
  }
  get(lower: string): string | undefined {
    return this.map.get(lower)?.[1];
  }
  delete(lower: string): void {
    this.map.delete(lower);
  }
  flat(): string[] {
    const out: string[] = [];
    for (const [name, value] of this.map.values()) out.push(name, value);
    return out;
  }
}

/** `Vary` with `accept-encoding` added as the `vary` package (Koa's `ctx.vary`) adds it. */
export function varyWith(existing: string | undefined): string {
  if (existing === undefined || existing === '') return 'accept-encoding';
  if (existing === '*') return existing;
  const fields = existing.split(',').map((f) => f.trim().toLowerCase());
  return fields.includes('accept-encoding') || fields.includes('*') ? existing : `${existing}, accept-encoding`;
}

/** Write an answer as Koa's `respond` does: the headers in the order set, the length of the body, no body for HEAD; `close`: `connection: close`. */
export function writeAnswer(res: ServerResponse, method: string, status: number, headers: ResponseHeaders, out: Encoded, close: boolean): void {
  if (out.encoding !== undefined) headers.set('content-encoding', out.encoding);
  const body = out.body;
  headers.set('Content-Length', String(typeof body === 'string' ? Buffer.byteLength(body) : body.length));
  if (close) headers.set('connection', 'close');
  if (status === 204 || status === 205 || status === 304) {
    // Koa drops the body of an empty status, and its length and type with it
    headers.delete('content-type');
    headers.delete('content-length');
    headers.delete('transfer-encoding');
    res.writeHead(status, headers.flat());
    res.end();
    return;
  }
  res.writeHead(status, headers.flat());
  if (method === 'HEAD') res.end();
  else res.end(body);
}

/** A refused upgrade's answer on its socket (status, headers by lower-cased name, the JSON body), then closed. */
export function writeRefusal(socket: Duplex, status: number, headers: Readonly<Record<string, string>>, body: JsonValue): void {
  const text = toJson(body);
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(text)}`,
    'connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${text}`);
}
