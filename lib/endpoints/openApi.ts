/**
 * GET /openapi.json — this API's own OpenAPI document (both forms, and the other dialects),
 * generated from the registries, with the requested chain's store values as the examples of
 * "Try it out" (lib/openapi/examples.ts). Not an explorer endpoint: it is not in the document
 * itself. The store is read at most once per EXAMPLES_TTL_MS per chain (and the explorer's
 * response cache keeps the answer per data version).
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type { JsonObject } from '../json.ts';
import { buildOpenApiDocument, OPENAPI_PATH } from '../openapi/document.ts';
import type { StoreExamples } from '../openapi/examples.ts';
import { readStoreExamples, withExamples } from '../openapi/examples.ts';
import type { DataSource } from '../ports.ts';
import type { AnyEndpoint } from './endpoint.ts';
import { defineEndpoint } from './endpoint.ts';

/** How long a chain's example values are reused (ms of the explorer's clock). */
export const EXAMPLES_TTL_MS = 5_000;

export function openApiEndpoint(documented: Readonly<Record<string, AnyEndpoint>>) {
  let last: { readonly key: string; readonly doc: JsonObject } | null = null;
  const documentFor = (chainIds: readonly string[]): JsonObject => {
    const key = chainIds.join('\n');
    if (last === null || last.key !== key) last = { key, doc: buildOpenApiDocument(documented, { chainIds }) };
    return last.doc;
  };
  const read = new WeakMap<DataSource, { readonly at: number; readonly chainId: string; readonly examples: Promise<StoreExamples> }>();
  const examplesOf = (ds: DataSource, chainId: string, now: number): Promise<StoreExamples> => {
    const known = read.get(ds);
    if (known !== undefined && known.chainId === chainId && now - known.at < EXAMPLES_TTL_MS) return known.examples;
    // a store that fails to answer: the document without examples
    const examples = readStoreExamples(ds, chainId).catch((): StoreExamples => ({}));
    read.set(ds, { at: now, chainId, examples });
    return examples;
  };
  let exemplified: { readonly base: JsonObject; readonly key: string; readonly doc: JsonObject } | null = null;
  const documentWith = (base: JsonObject, examples: StoreExamples): JsonObject => {
    const key = JSON.stringify(examples);
    if (exemplified === null || exemplified.base !== base || exemplified.key !== key) exemplified = { base, key, doc: withExamples(base, examples) };
    return exemplified.doc;
  };
  return defineEndpoint({
    route: OPENAPI_PATH,
    summary: 'This OpenAPI document',
    path: {},
    query: {},
    response: t.UnknownRecord,
    meta: true,
    handler:
      ({ chainIds, chainId, ds, now }) =>
      () =>
      async () =>
        E.right(documentWith(documentFor(chainIds), await examplesOf(ds, chainId, now()))),
  });
}
