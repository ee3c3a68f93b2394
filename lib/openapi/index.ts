/** The OpenAPI document of every explorer endpoint of the registry (both forms). */
import { DOCUMENTED } from '../endpoints/index.ts';
import type { JsonObject } from '../json.ts';
import type { OpenApiOptions } from './document.ts';
import { buildOpenApiDocument } from './document.ts';

export type { OpenApiOptions } from './document.ts';
export { OPENAPI_PATH } from './document.ts';

/** `openApiDocument({ chainIds: explorer.chainIds })`: also served at `GET /api/v2/openapi.json`. */
export function openApiDocument(options: OpenApiOptions): JsonObject {
  return buildOpenApiDocument(DOCUMENTED, options);
}
