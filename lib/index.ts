/** scoutkit core — the public entry of lib/. */
export type {
  ApiForm,
  EndpointName,
  EndpointRequest,
  Explorer,
  ExplorerOptions,
  ExplorerRequest,
  ExplorerResponse,
  RawQuery,
  Route,
} from './api.ts';
export { createExplorer, call, DEFAULT_IPFS_GATEWAY } from './explorer.ts';
export { explorerClient } from './client.ts';
export type { ExplorerClient } from './client.ts';
export type { CreateExplorerOptions } from './explorer.ts';
export { ROUTES, API_PREFIX, matchRoute, parsePath, routeMatcher } from './routes.ts';
export type { RouteMatch } from './routes.ts';
export { openApiDocument, OPENAPI_PATH } from './openapi/index.ts';
export type { OpenApiOptions } from './openapi/index.ts';
export type { ApiError, ParamError } from './errors.ts';
export { errorResponse, RATE_LIMITED_MESSAGE } from './errors.ts';
export { toJson } from './json.ts';
export type { JsonValue, JsonObject } from './json.ts';
export type * from './ports.ts';
export type * from './domain/records.ts';
export { TOKEN_TYPES, NFT_TOKEN_TYPES, TRANSACTION_KINDS } from './domain/records.ts';
export * as ingest from './ingest/derive.ts';
export { InvalidWriteError, validateBundle, validatePending } from './sink/validate.ts';
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './paging/page.ts';
export { ENDPOINTS, ENDPOINT_NAMES } from './endpoints/index.ts';
