/**
 * The one route table, derived from the registry: path templates under `/api/v2` (in
 * @koa/router syntax) → endpoint. Used by `handle` (lib) and by the Koa host for both the
 * per-instance and the multichain form. Fixed segments match before parameters, whatever the
 * registry order: `/transactions/stats` would never be taken for a transaction hash.
 */
import type { ApiVersion, EndpointName, Route } from './api.ts';
import { API_PREFIX } from './api.ts';
import { ENDPOINT_NAMES, ENDPOINTS } from './endpoints/index.ts';

export { API_PREFIX };

/** `/blocks/{block_hash_or_number_param}` → `/blocks/:block_hash_or_number_param` */
const koaTemplate = (route: string): string => route.replace(/\{([^}]+)\}/g, ':$1');

export const ROUTES: readonly Route[] = ENDPOINT_NAMES.map((endpoint) => {
  const e: { readonly route: string; readonly api?: ApiVersion } = ENDPOINTS[endpoint];
  return { endpoint, template: koaTemplate(e.route), ...(e.api === undefined ? {} : { api: e.api }) };
});

export interface RouteMatch<N extends string = EndpointName> {
  readonly endpoint: N;
  readonly params: Readonly<Record<string, string>>;
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
 * A matcher over a route table (templates in @koa/router syntax, below `/api/v2`): a path below
 * `/api/v2`, or with `api` `v1` a path below `/api/v1` (matched against the v1 routes only).
 */
export function routeMatcher<N extends string>(routes: readonly Route<N>[]): (subPath: string, api?: ApiVersion) => RouteMatch<N> | null {
  const v2 = versionMatcher(routes.filter((r) => (r.api ?? 'v2') === 'v2'));
  const v1 = versionMatcher(routes.filter((r) => r.api === 'v1'));
  return (subPath, api = 'v2') => (api === 'v1' ? v1 : v2)(subPath);
}

function versionMatcher<N extends string>(routes: readonly Route<N>[]): (subPath: string) => RouteMatch<N> | null {
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
      return { endpoint: route.endpoint, params };
    }
    return null;
  };
}

/** Match a path below `/api/v2` (e.g. `/transactions/0x…`), or with `v1` below `/api/v1`. */
export const matchRoute: (subPath: string, api?: ApiVersion) => RouteMatch | null = routeMatcher(ROUTES);

function safeDecode(segment: string): string {
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
  if (v1 === null || matchRoute(v1[2] ?? '/', 'v1') === null) return null;
  return { chainId: v1[1] === undefined ? undefined : safeDecode(v1[1]), subPath: v1[2] ?? '/', api: 'v1' };
}
