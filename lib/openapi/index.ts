/** The OpenAPI document of every explorer endpoint of the registry (both forms) and of the other dialects. */
import { DOCUMENTED } from '../endpoints/index.ts';
import type { JsonObject } from '../json.ts';
import type { OpenApiOptions } from './document.ts';
import { buildOpenApiDocument } from './document.ts';
import type { StoreExamples } from './examples.ts';
import { withExamples } from './examples.ts';

export type { OpenApiOptions } from './document.ts';
export { MULTICHAIN_TAG, OPENAPI_PATH } from './document.ts';
export type { StoreExamples } from './examples.ts';
export { readStoreExamples } from './examples.ts';

/**
 * `openApiDocument({ chainIds: explorer.chainIds })`: also served at `GET /api/v2/openapi.json`,
 * with `examples` from the served store (`readStoreExamples(store, chainId)`).
 */
export function openApiDocument(options: OpenApiOptions & { readonly examples?: StoreExamples }): JsonObject {
  const doc = buildOpenApiDocument(DOCUMENTED, options);
  return options.examples === undefined ? doc : structuredClone(withExamples(doc, options.examples));
}
