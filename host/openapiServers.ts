/**
 * The `servers` of our OpenAPI document as this host serves it, so that swagger-ui's "Try it out"
 * (and any generated client) calls the right base: the public URL when one is given, else the
 * mount prefix (a URL relative to the document's own, as OpenAPI allows). lib's document names
 * no server: it is served from the root.
 */
import type { JsonObject, JsonValue } from '../lib/index.ts';

export interface ServersOptions {
  /** where the API is mounted, e.g. `/explorer` */
  readonly prefix?: string;
  /** this host's public URL, with the prefix */
  readonly publicUrl?: string;
}

/** The document with its `servers`; undefined when the API is served from the root (nothing to add). */
export function documentServers(options: ServersOptions): ((document: JsonValue) => JsonValue) | undefined {
  const url = options.publicUrl?.replace(/\/+$/, '') ?? options.prefix ?? '';
  if (url === '') return undefined;
  // lib hands out the same document object until its chains change: one copy per document
  const done = new WeakMap<object, JsonObject>();
  return (document) => {
    if (!isObject(document)) return document;
    let out = done.get(document);
    if (out === undefined) {
      // `servers` after `info`, where the specification lists it
      const { openapi, info, ...rest } = document;
      out = { openapi, info, servers: [{ url }], ...rest };
      done.set(document, out);
    }
    return out;
  };
}

const isObject = (value: JsonValue): value is JsonObject => value !== null && typeof value === 'object' && !Array.isArray(value);
