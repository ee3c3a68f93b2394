/**
 * Rendered answers cached per request and data version (see lib/data-version.ts): a hit is
 * valid only while the source's version is the one it was rendered at. Least recently used
 * entries go first once `maxEntries` is reached.
 */
import type { EndpointRequest, ExplorerResponse } from './api.ts';
import { singleValues } from './params/decode.ts';

export interface ResponseCacheOptions {
  /** answers kept (default 500); 0 disables the cache */
  readonly maxEntries?: number;
  /**
   * A store other processes may write (SQL) is asked for its data version at most this often
   * (default 100 ms; 0: on every request); its writes in this process are seen at once.
   */
  readonly versionPollMs?: number;
  /** the clock of that interval, in ms (tests; default performance.now) */
  readonly now?: () => number;
}

export interface ResponseCache {
  /** false when maxEntries is 0: callers then need no data version at all */
  readonly enabled: boolean;
  get(key: string, version: string): ExplorerResponse | undefined;
  set(key: string, version: string, response: ExplorerResponse): void;
}

/**
 * `name=value` pairs in name order, each JSON-quoted (so no value can run into the next): the
 * same parameters in any order make the same key.
 */
function sortedPairs(o: Readonly<Record<string, string>>): string {
  const names = Object.keys(o);
  if (names.length > 1) names.sort();
  let out = '';
  for (const name of names) out += `${JSON.stringify(name)}=${JSON.stringify(o[name])},`;
  return out;
}

/** The cache key of a request: its chain, form, endpoint, path parameters and query, as one string. */
export function requestKey(request: EndpointRequest): string {
  return `${JSON.stringify(request.chainId)} ${request.form ?? 'instance'} ${request.endpoint} ${sortedPairs(request.params)}?${sortedPairs(singleValues(request.query))}`;
}

/** Every answer any cache kept (weakly: a dropped answer goes with its last reference). */
const kept = new WeakSet<ExplorerResponse>();

/**
 * Whether this answer was kept by a response cache: the same object is then handed out on every
 * hit, so a host may derive its bytes (encoded, compressed) once and keep them beside it.
 */
export function isCachedResponse(response: ExplorerResponse): boolean {
  return kept.has(response);
}

export function createResponseCache(options: ResponseCacheOptions = {}): ResponseCache {
  const max = options.maxEntries ?? 500;
  const entries = new Map<string, { readonly version: string; readonly response: ExplorerResponse }>();
  // the most recently used key: a hit on it needs no reordering
  let newest: string | undefined;
  return {
    enabled: max > 0,
    get(key, version) {
      const hit = entries.get(key);
      if (hit === undefined) return undefined;
      if (hit.version !== version) {
        entries.delete(key);
        return undefined;
      }
      if (key !== newest) {
        // refresh its place: most recently used last
        entries.delete(key);
        entries.set(key, hit);
        newest = key;
      }
      return hit.response;
    },
    set(key, version, response) {
      if (max <= 0) return;
      entries.delete(key);
      if (entries.size >= max) entries.delete(entries.keys().next().value as string);
      entries.set(key, { version, response });
      kept.add(response);
      newest = key;
    },
  };
}
