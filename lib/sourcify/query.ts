/** The query parameters an endpoint takes: Sourcify refuses any other (its OpenAPI validator); an API key is the server's. */
import type { RawQuery } from '../request.ts';

const SERVER_PARAMS = new Set(['apikey', 'apiKey']);

/** The first parameter neither `allowed` nor the server's, or undefined. */
export function unknownParam(query: RawQuery, allowed: readonly string[]): string | undefined {
  return Object.keys(query).find((name) => query[name] !== undefined && !allowed.includes(name) && !SERVER_PARAMS.has(name));
}
