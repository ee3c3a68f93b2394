/**
 * The one route table, derived from the registry: a method and a path template under `/api/v2`
 * (in @koa/router syntax) → endpoint. Used by `handle` (lib) and by the Koa host for both the
 * per-instance and the multichain form. The table is keyed by method: a path is matched among
 * the templates of the request's method only (HEAD: GET's); a path known under other methods
 * only is a 405, an unknown one a 404. Fixed segments match before parameters, whatever the
 * registry order: `/transactions/stats` would never be taken for a transaction hash.
 */
import { methodOf } from './endpoints/endpoint.ts';
import { ENDPOINT_NAMES, ENDPOINTS } from './endpoints/index.ts';
import type { EndpointName } from './endpoints/names.ts';
import type { ApiVersion } from './paths.ts';
import { API_PREFIX } from './paths.ts';
import type { HttpMethod } from './request.ts';

export { API_PREFIX };

/** One row of the route table: a method and a path template under `/api/v2` (or `/api/v1`) in @koa/router syntax. */
export interface Route<N extends string = EndpointName> {
  readonly endpoint: N;
  /** e.g. `/addresses/:address_hash_param/tokens` */
  readonly template: string;
  /** default GET (which also answers HEAD) */
  readonly method?: HttpMethod;
  /** the route reads a body of at most this many bytes (its endpoint's `body.maxBytes`) */
  readonly bodyLimit?: number;
  /** `v1`: the template is below `/api/v1` (default `v2`) */
  readonly api?: ApiVersion;
}

/** `/blocks/{block_hash_or_number_param}` → `/blocks/:block_hash_or_number_param` */
export const koaTemplate = (route: string): string => route.replace(/\{([^}]+)\}/g, ':$1');

/** The route of an endpoint: its method, its template (and API version), the cap of its body when it reads one. */
export function routeOf<N extends string>(
  endpoint: N,
  e: { readonly method?: HttpMethod; readonly route: string; readonly api?: ApiVersion; readonly body?: { readonly maxBytes: number } },
): Route<N> {
  const route: Route<N> = { endpoint, method: methodOf(e), template: koaTemplate(e.route), ...(e.api === undefined ? {} : { api: e.api }) };
  return e.body === undefined ? route : { ...route, bodyLimit: e.body.maxBytes };
}

export const ROUTES: readonly Route[] = ENDPOINT_NAMES.map((endpoint) => routeOf(endpoint, ENDPOINTS[endpoint]));

export interface RouteMatch<N extends string = EndpointName> {
  readonly endpoint: N;
  readonly params: Readonly<Record<string, string>>;
  /** the route reads a body of at most this many bytes (absent: it reads none) */
  readonly bodyLimit?: number;
}

/** A path's route under one method of the table. */
export interface MethodRoute<N extends string = EndpointName> extends RouteMatch<N> {
  readonly method: HttpMethod;
}

/**
 * A route table: `(subPath, method)` finds the route of that method (default GET; HEAD finds
 * GET's); when it finds none, `any(subPath)` tells a 405 (the path's routes under other
 * methods) from a 404 (none).
 */
export interface RouteMatcher<N extends string = EndpointName> {
  (subPath: string, method?: string, api?: ApiVersion): RouteMatch<N> | null;
  /** the path's route under each method it is known under (table order); empty: an unknown path */
  any(subPath: string, api?: ApiVersion): readonly MethodRoute<N>[];
}

/** The `allow` header of a path known under these methods (GET brings HEAD). */
export function allowHeader(routes: readonly { readonly method: HttpMethod }[]): string {
  const methods: string[] = [];
  for (const { method } of routes) {
    if (!methods.includes(method)) methods.push(method);
    if (method === 'GET' && !methods.includes('HEAD')) methods.push('HEAD');
  }
  return methods.join(', ');
}

const isParam = (segment: string): boolean => segment.startsWith(':');

/**
 * A total order of templates (a consistent comparator, so sort() honours it whatever the registry
 * order): segment by segment, a fixed segment before a parameter, fixed segments by their text,
 * parameters alike; then the shorter template. Where two templates could match the same path,
 * the first segment where they differ is fixed in one and a parameter in the other: the fixed
 * one goes first.
 */
function byPrecedence(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] as string;
    const y = b[i] as string;
    const px = isParam(x);
    const py = isParam(y);
    if (px !== py) return px ? 1 : -1;
    if (!px && x !== y) return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/**
 * A matcher over a route table (methods and templates in @koa/router syntax): a path below
 * `/api/v2`, or with `api` `v1` a path below `/api/v1` (matched against the v1 routes only).
 */
export function routeMatcher<N extends string>(routes: readonly Route<N>[]): RouteMatcher<N> {
  const key = (api: ApiVersion, method: string) => `${api} ${method}`;
  const byKey = new Map<string, (subPath: string) => RouteMatch<N> | null>();
  const methods = new Map<ApiVersion, HttpMethod[]>();
  for (const route of routes) {
    const method = route.method ?? 'GET';
    const api = route.api ?? 'v2';
    if (byKey.has(key(api, method))) continue;
    byKey.set(key(api, method), templateMatcher(routes.filter((r) => (r.method ?? 'GET') === method && (r.api ?? 'v2') === api)));
    methods.set(api, [...(methods.get(api) ?? []), method]);
  }
  const matchGet = byKey.get(key('v2', 'GET'));
  const match = (subPath: string, method = 'GET', api: ApiVersion = 'v2'): RouteMatch<N> | null => {
    const get = method === 'GET' || method === 'HEAD';
    // a GET (or HEAD) of the API v2 is nearly every request: no lookup for it
    const matcher = get && api === 'v2' ? matchGet : byKey.get(key(api, get ? 'GET' : method));
    return matcher === undefined ? null : matcher(subPath);
  };
  const any = (subPath: string, api: ApiVersion = 'v2'): MethodRoute<N>[] => {
    const found: MethodRoute<N>[] = [];
    for (const method of methods.get(api) ?? []) {
      const m = (byKey.get(key(api, method)) as (subPath: string) => RouteMatch<N> | null)(subPath);
      if (m !== null) found.push({ ...m, method });
    }
    return found;
  };
  return Object.assign(match, { any });
}

/** A matcher over the templates of one method (and API version). */
function templateMatcher<N extends string>(routes: readonly Route<N>[]): (subPath: string) => RouteMatch<N> | null {
  const compiled = routes
    .map((route) => {
      // a template with a trailing slash (`/smart-contracts/`, as the documents spell it) matches with or without it (`/tokens` answers as `/tokens/`)
      const segments = route.template.replace(/(.)\/$/, '$1').split('/').slice(1);
      const names: string[] = [];
      const pattern = segments
        .map((s) => {
          if (!isParam(s)) return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          names.push(s.slice(1));
          return '([^/]+)';
        })
        .join('/');
      return { route, segments, names, regex: new RegExp(`^/${pattern}/?$`) };
    })
    .sort((a, b) => byPrecedence(a.segments, b.segments));
  // the candidates of a path: the templates whose first segment is its first segment, then those
  // starting with a parameter (in precedence order both), instead of every template's regex
  const leadingParam = compiled.filter((c) => isParam(c.segments[0] ?? ''));
  const byFirst = new Map<string, typeof compiled>();
  for (const c of compiled) {
    const first = c.segments[0] ?? '';
    if (!isParam(first)) byFirst.set(first, [...(byFirst.get(first) ?? []), c]);
  }
  for (const [first, group] of byFirst) byFirst.set(first, [...group, ...leadingParam]);
  return (subPath) => {
    const end = subPath.indexOf('/', 1);
    const candidates = byFirst.get(end === -1 ? subPath.slice(1) : subPath.slice(1, end)) ?? leadingParam;
    for (const { route, names, regex } of candidates) {
      const m = regex.exec(subPath);
      if (!m) continue;
      const params: Record<string, string> = {};
      names.forEach((name, i) => {
        params[name] = safeDecode(m[i + 1] ?? '');
      });
      return route.bodyLimit === undefined ? { endpoint: route.endpoint, params } : { endpoint: route.endpoint, params, bodyLimit: route.bodyLimit };
    }
    return null;
  };
}

/** Match a method and a path below `/api/v2` (e.g. `/transactions/0x…`), or with `v1` below `/api/v1`, in the registry's table. */
export const matchRoute: RouteMatcher = routeMatcher(ROUTES);

/** A path segment decoded, or as sent when it is not valid percent-encoding. */
export function safeDecode(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export interface ParsedPath {
  /** chain id from `/{chain_id}/api/v2/...`, undefined for the per-instance form */
  readonly chainId: string | undefined;
  /** the part after `/api/v2` (or `/api/v1`) */
  readonly subPath: string;
  /** which version's routes `subPath` is below */
  readonly api: ApiVersion;
}

const API_PREFIX_SLASH = `${API_PREFIX}/`;

/**
 * Split a full path into its chain and the part below `/api/v2`; null when it is neither form.
 * A v1 path of the route table (`/api/v1/search`, `/{chain_id}/api/v1/search`) → `api: 'v1'`;
 * any other path below `/api/v1` is not ours (null).
 */
export function parsePath(path: string): ParsedPath | null {
  const query = path.indexOf('?');
  const clean = query === -1 ? path : path.slice(0, query);
  if (clean === API_PREFIX || clean.startsWith(API_PREFIX_SLASH)) {
    return { chainId: undefined, subPath: clean.slice(API_PREFIX.length) || '/', api: 'v2' };
  }
  const m = /^\/([^/]+)(\/api\/v2(?:\/.*)?)$/.exec(clean);
  if (m) return { chainId: safeDecode(m[1] ?? ''), subPath: (m[2] ?? '').slice(API_PREFIX.length) || '/', api: 'v2' };
  const v1 = /^(?:\/([^/]+))?\/api\/v1(\/.*)$/.exec(clean);
  if (v1 === null || matchRoute.any(v1[2] ?? '/', 'v1').length === 0) return null;
  return { chainId: v1[1] === undefined ? undefined : safeDecode(v1[1]), subPath: v1[2] ?? '/', api: 'v1' };
}
