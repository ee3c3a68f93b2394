/**
 * GET /openapi.json — this API's own OpenAPI document (both forms), generated from the
 * registry. Not an explorer endpoint: it reads no store and is not in the document itself.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type { JsonObject } from '../json.ts';
import { buildOpenApiDocument, OPENAPI_PATH } from '../openapi/document.ts';
import type { AnyEndpoint } from './endpoint.ts';
import { defineEndpoint } from './endpoint.ts';

export function openApiEndpoint(documented: Readonly<Record<string, AnyEndpoint>>) {
  let last: { readonly key: string; readonly doc: JsonObject } | null = null;
  const documentFor = (chainIds: readonly string[]): JsonObject => {
    const key = chainIds.join('\n');
    if (last === null || last.key !== key) last = { key, doc: buildOpenApiDocument(documented, { chainIds }) };
    return last.doc;
  };
  return defineEndpoint({
    route: OPENAPI_PATH,
    summary: 'This OpenAPI document',
    path: {},
    query: {},
    response: t.UnknownRecord,
    meta: true,
    handler:
      ({ chainIds }) =>
      () =>
      async () =>
        E.right(documentFor(chainIds)),
  });
}
