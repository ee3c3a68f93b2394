/**
 * CORS, as Blockscout answers it (cors_plug in its Phoenix endpoint, in front of every route):
 * any origin by default, a preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`)
 * answered 204 before anything else runs (so it is never charged, never 405), and the rate-limit
 * headers exposed so that a page can read them. `access-control-allow-origin` is set before the
 * request's steps run, so errors and 429s carry it too.
 *
 * The protocol is @koa/cors's (koajs' own, beside koa and @koa/router); this module holds
 * Blockscout's header lists, the origin list of `--cors`, and one case @koa/cors passes on: a
 * preflight from an origin not on the list is answered 204 without CORS headers (the browser
 * then refuses the request) instead of reaching the API. With any origin (the default), an
 * actual request gets @koa/cors's two headers set synchronously here: every API request passes
 * through this, and the library's async wrapper is a promise more per request.
 *
 * Differences from Blockscout, on purpose: no `access-control-allow-credentials` (scoutkit sets
 * no cookies; keys travel in headers or the query, which need no credentials mode; Blockscout's
 * `*` with credentials is refused by browsers for a credentialed request anyway), and the
 * allowed methods are the ones scoutkit answers (GET, HEAD, POST).
 */
import koaCors from '@koa/cors';
import type { Middleware, ParameterizedContext } from 'koa';
import { LIMIT_HEADERS } from './limits.ts';

export interface CorsOptions {
  /** the origins a browser may call from (`https://app.example`, as browsers send them); default `'*'`: any */
  readonly origins?: '*' | readonly string[];
  /** more request headers a page may send (the defaults: `CORS_ALLOW_HEADERS`) */
  readonly allowHeaders?: readonly string[];
  /** more response headers a page may read (the defaults: `CORS_EXPOSE_HEADERS`) */
  readonly exposeHeaders?: readonly string[];
  /** how long a browser may keep a preflight's answer (default Blockscout's 1,728,000 s; browsers cap it) */
  readonly maxAgeSeconds?: number;
}

/** The methods scoutkit answers (API v2 and config: GET, HEAD; JSON-RPC and Etherscan forms: POST). */
export const CORS_ALLOW_METHODS = ['GET', 'HEAD', 'POST', 'OPTIONS'] as const;

/**
 * Request headers a page may send: ours (`authorization`, `x-api-key`), then Blockscout's
 * (its own headers, which its frontend sends, and cors_plug's defaults).
 */
export const CORS_ALLOW_HEADERS = [
  'authorization',
  'x-api-key',
  'content-type',
  // Blockscout's endpoint adds these to cors_plug's defaults
  'x-apollo-tracing',
  'updated-gas-oracle',
  'recaptcha-v2-response',
  'recaptcha-v3-response',
  'recaptcha-bypass-token',
  'scoped-recaptcha-bypass-token',
  'show-scam-tokens',
  'api-v2-temp-token',
  // cors_plug's defaults
  'accept',
  'origin',
  'user-agent',
  'dnt',
  'cache-control',
  'x-mx-reqtoken',
  'keep-alive',
  'x-requested-with',
  'if-modified-since',
  'x-csrf-token',
] as const;

/**
 * Response headers a page may read beyond the CORS-safelisted ones: the four limit headers (as
 * Blockscout exposes its three and `bypass-429-option`), `retry-after` of a 429 or 503, and a
 * CSV export's file name.
 */
export const CORS_EXPOSE_HEADERS = [...LIMIT_HEADERS, 'retry-after', 'content-disposition'] as const;

/** Blockscout's (cors_plug's default) preflight max age, in seconds. */
export const CORS_MAX_AGE_SECONDS = 1_728_000;

/** A CORS preflight: `OPTIONS` with the method the browser means to send. */
export const isPreflight = (ctx: ParameterizedContext): boolean =>
  ctx.method === 'OPTIONS' && ctx.get('access-control-request-method') !== '';

/** The CORS middleware: headers on every answer of what it wraps, preflights answered 204. */
export function corsMiddleware(options: CorsOptions = {}): Middleware {
  const origins = options.origins ?? '*';
  const listed = allowsAnyOrigin(options) || origins === '*' ? undefined : new Set(origins.map(normalizeOrigin));
  const handle = koaCors({
    // a list: the request's origin when listed ('' otherwise: no CORS headers), with `vary: origin`
    origin: listed === undefined ? '*' : (ctx) => (listed.has(ctx.get('origin')) ? ctx.get('origin') : ''),
    allowMethods: [...CORS_ALLOW_METHODS],
    allowHeaders: [...CORS_ALLOW_HEADERS, ...(options.allowHeaders ?? [])],
    exposeHeaders: [...CORS_EXPOSE_HEADERS, ...(options.exposeHeaders ?? [])],
    maxAge: options.maxAgeSeconds ?? CORS_MAX_AGE_SECONDS,
    credentials: false,
    keepHeadersOnError: true,
  });
  if (listed === undefined) {
    // any origin: an actual request (not OPTIONS) gets the same two headers @koa/cors would set,
    // set here without its async wrapper (every API request passes through this); no `vary:
    // origin`, as cors_plug for `*` (the answer is the same for every origin)
    const [[originName, origin], [exposeName, expose]] = anyOriginHeaders(options);
    return (ctx, next) => {
      if (ctx.method === 'OPTIONS') return handle(ctx, next);
      ctx.set(originName, origin);
      ctx.set(exposeName, expose);
      return next();
    };
  }
  return (ctx, next) => {
    if (isPreflight(ctx) && !listed.has(ctx.get('origin'))) {
      // @koa/cors would pass it on (to a 405, charged): answered here, without CORS headers
      ctx.vary('Origin');
      ctx.status = 204;
      return Promise.resolve();
    }
    return handle(ctx, next);
  };
}

/** Whether these options allow any origin (then an actual request's CORS headers are the same for every request). */
export function allowsAnyOrigin(options: CorsOptions = {}): boolean {
  const origins = options.origins ?? '*';
  return origins === '*' || origins.includes('*');
}

/** The two headers of an actual (not preflight) request when any origin is allowed, in the order they are set. */
export function anyOriginHeaders(options: CorsOptions = {}): readonly [readonly [string, string], readonly [string, string]] {
  const expose = [...CORS_EXPOSE_HEADERS, ...(options.exposeHeaders ?? [])].join(',');
  return [
    ['access-control-allow-origin', '*'],
    ['access-control-expose-headers', expose],
  ];
}

/**
 * `--cors` / the `cors` option as given: `'*'`, an origin, or a comma-separated list of them.
 * An origin is `http(s)://host[:port]` (a trailing slash is dropped); anything else is an error.
 */
export function parseCorsOrigins(text: string): '*' | readonly string[] {
  const parts = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (parts.length === 0) throw new Error('--cors: give * or a comma-separated list of origins such as https://app.example');
  if (parts.includes('*')) return '*';
  return parts.map((p) => {
    const origin = normalizeOrigin(p);
    if (!/^https?:\/\/[^/?#\s]+$/i.test(origin)) throw new Error(`--cors: not an origin (scheme://host[:port]): "${p}"`);
    return origin;
  });
}

/** As a browser sends it: no trailing slash, scheme and host in lower case. */
function normalizeOrigin(origin: string): string {
  const trimmed = origin.replace(/\/+$/, '');
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([^/]+)$/i.exec(trimmed);
  return m === null ? trimmed : `${(m[1] ?? '').toLowerCase()}${(m[2] ?? '').toLowerCase()}`;
}
