/**
 * The one place from a failure to an answer, for every way in (the Koa middleware, the fast path,
 * upgrades, socket joins): a refusal of ours (`ApiException`) is its API error, anything else is
 * reported and becomes `Internal`; lib's error table (`errorResponse`) gives the status and body;
 * a limit header the steps did not get to set says -1 (so a 401 or 503 still names them).
 */
import { errorResponse } from '../../lib/index.ts';
import type { ApiError, JsonValue } from '../../lib/index.ts';
import { LIMIT_HEADERS } from '../limits.ts';
import { ApiException } from '../request.ts';

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
