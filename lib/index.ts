/** scoutkit core — the public entry of lib/. */
export type {
  ApiForm,
  ApiVersion,
  EndpointName,
  EndpointRequest,
  EtherscanRequest,
  Explorer,
  ExplorerOptions,
  ExplorerRequest,
  ExplorerResponse,
  FailedRequest,
  RawQuery,
  Route,
  RpcRequest,
  ServiceName,
} from './api.ts';
export { RPC_ENDPOINT, CONFIG_ENDPOINT, ETHERSCAN_ENDPOINT } from './api.ts';
export { ETHERSCAN_ACTIONS, ETHERSCAN_PATH, LEGACY_PATHS, parseEtherscanPath } from './etherscan/index.ts';
export type { EtherscanAction, EtherscanAnswer, EtherscanContext, EtherscanPath, EtherscanQuery } from './etherscan/index.ts';
export { RPC_METHODS } from './rpc/index.ts';
export type { RpcContext, RpcMethod, RpcNode } from './rpc/index.ts';
export type { RpcCall, RpcErrorObject, RpcOutcome, RpcResponse } from './rpc/protocol.ts';
export { MAX_BATCH_SIZE, RPC_CODES, callCount, parseJson } from './rpc/protocol.ts';
export { MAX_LOG_BLOCK_RANGE, MAX_LOG_RESULTS, MAX_LOG_TRANSACTIONS } from './rpc/store.ts';
export { gatewayConfig, CONFIG_PATH, INSTANCE_RPC_PATH, MULTICHAIN_RPC_PATH } from './gateway/config.ts';
export type { GatewayConfig, GatewayConfigOptions } from './gateway/config.ts';
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
